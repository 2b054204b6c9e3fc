import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, connect as tcpConnect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

/** Where Debian installs nats-server (the `nats-server` package; `.ci/run` installs it). */
export const NATS_SERVER = ['/usr/sbin/nats-server', '/usr/bin/nats-server'].find((p) => existsSync(p))

/** A nats-server with JetStream on a loopback port, its store in a temp folder. Tests only. */
export interface NatsServer {
  url: string
  port: number
  storeDir: string
  proc: ChildProcess
  /** kill -9, then wait for its exit. */
  kill9(): Promise<void>
  /** Starts it again on the same port and store. */
  restart(): Promise<void>
  /** Kills it and removes its store. */
  stop(): Promise<void>
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

async function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = tcpConnect(port, '127.0.0.1')
    c.once('connect', () => (c.destroy(), resolve(true)))
    c.once('error', () => resolve(false))
  })
}

/**
 * Starts `nats-server -js -sd <tmp>` on a free loopback port (`extraArgs`: say `--auth TOKEN`, or
 * none with `jetstream: false` for a server without JetStream) and resolves once it accepts.
 * @throws when nats-server is not installed (install the Debian package `nats-server`).
 */
export async function startNatsServer(opts: { jetstream?: boolean; extraArgs?: string[] } = {}): Promise<NatsServer> {
  if (!NATS_SERVER) throw new Error('nats-server is not installed: apt-get install nats-server')
  const port = await freePort()
  const storeDir = mkdtempSync(join(tmpdir(), 'swarmdesk-nats-'))
  const args = [
    '-a',
    '127.0.0.1',
    '-p',
    String(port),
    ...(opts.jetstream === false ? [] : ['-js', '-sd', storeDir]),
    ...(opts.extraArgs ?? [])
  ]
  const launch = async (): Promise<ChildProcess> => {
    const proc = spawn(NATS_SERVER, args, { stdio: ['ignore', 'ignore', 'pipe'] })
    let log = ''
    proc.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)))
    const started = Date.now()
    while (!(await accepting(port))) {
      if (proc.exitCode !== null) throw new Error(`nats-server exited ${proc.exitCode}: ${log}`)
      if (Date.now() - started > 10_000) throw new Error(`nats-server did not listen on ${port}: ${log}`)
      await sleep(20)
    }
    return proc
  }
  const exited = (p: ChildProcess): Promise<void> =>
    p.exitCode !== null || p.signalCode !== null ? Promise.resolve() : new Promise((r) => p.once('exit', () => r()))
  const server: NatsServer = {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    proc: await launch(),
    async kill9() {
      server.proc.kill('SIGKILL')
      await exited(server.proc)
    },
    async restart() {
      server.proc = await launch()
    },
    async stop() {
      server.proc.kill('SIGKILL')
      await exited(server.proc)
      rmSync(storeDir, { recursive: true, force: true })
    }
  }
  return server
}
