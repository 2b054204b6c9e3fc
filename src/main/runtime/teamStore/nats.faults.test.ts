import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { setTimeout as sleep } from 'node:timers/promises'
import { connect } from '@nats-io/transport-node'
import { jetstreamManager } from '@nats-io/jetstream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleEntry } from '../../testkit/bundleEntry.testkit'
import { inboxSubject } from './nats/mailbox'
import { startNatsServer, type NatsServer } from './natsServer.testkit'
import { MAIL_STREAM, openTeamStore, parseTeamTransport, TeamStoreUnavailableError } from '.'

const home = mkdtempSync(join(tmpdir(), 'swarmdesk-nats-faults-'))
const servers: NatsServer[] = []
let entry: string
beforeAll(async () => {
  entry = await bundleEntry(
    join(__dirname, 'storeChild.testkit.ts'),
    join(mkdtempSync(join(tmpdir(), 'swarmdesk-store-child-')), 'child.mjs')
  )
}, 60_000)
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()))
  rmSync(home, { recursive: true, force: true })
})

const serve = async (opts: Parameters<typeof startNatsServer>[0] = {}): Promise<NatsServer> => {
  const s = await startNatsServer(opts)
  servers.push(s)
  return s
}

describe('the NATS team store when the server is unusable', () => {
  it('says the server is unreachable, and that JetStream is off', async () => {
    const off = await serve({ jetstream: false })
    await off.kill9()
    const unreachable = openTeamStore(home, parseTeamTransport(off.url), { timeoutMs: 1_000 })
    await expect(unreachable).rejects.toBeInstanceOf(TeamStoreUnavailableError)
    await expect(unreachable).rejects.toThrow(/cannot reach the NATS server/)
    const noJs = await serve({ jetstream: false })
    await expect(openTeamStore(home, parseTeamTransport(noJs.url), { timeoutMs: 1_000 })).rejects.toThrow(
      /JetStream is off on this server.*-js/
    )
  })

  it('uses a token from the URL, and never shows it in an error', async () => {
    const guarded = await serve({ extraArgs: ['--auth', 's3cret-token'] })
    const wrong = parseTeamTransport(`nats://wrong-token@127.0.0.1:${guarded.port}`)
    const refused = await openTeamStore(home, wrong, { timeoutMs: 1_000 }).catch((e: unknown) => e as Error)
    expect(refused).toBeInstanceOf(TeamStoreUnavailableError)
    expect((refused as Error).message).toMatch(/refused the credentials/)
    expect((refused as Error).message).not.toContain('wrong-token')
    const store = await openTeamStore(home, parseTeamTransport(`nats://s3cret-token@127.0.0.1:${guarded.port}`))
    expect(store.describe).not.toContain('s3cret')
    await store.mailbox.send('auth', 'bob', { from: 'alice', text: 'in' })
    expect((await store.mailbox.read('auth', 'bob')).map((e) => e.message.text)).toEqual(['in'])
    await store.close()
  })
})

describe('the NATS team store through a kill -9 of nats-server', () => {
  it('loses no acknowledged message or claim, and stores no message twice, when the server dies mid-burst', async () => {
    const server = await serve()
    const transport = parseTeamTransport(server.url)
    const team = 'burst'
    const count = 300
    const proc = spawn(
      process.execPath,
      [entry, JSON.stringify({ op: 'burst', home, transport, team, from: 'w', to: 'sink', count })],
      {
        stdio: ['ignore', 'pipe', 'pipe']
      }
    )
    let stderr = ''
    proc.stderr!.on('data', (d) => (stderr += d))
    const acked: string[] = []
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      const v = JSON.parse(line) as unknown
      if (v !== 'ready') acked.push(v as string)
    })
    const exited = new Promise<number | null>((r) => proc.on('close', (code) => r(code)))
    const before = await openTeamStore(home, transport)
    for (const subject of ['one', 'two', 'three']) await before.tasks.create(team, { subject })
    expect((await before.tasks.claim(team, 2, 'w1')).ok).toBe(true)
    await before.close()
    while (acked.length < 60) await sleep(5)
    await server.kill9()
    const ackedAtKill = acked.length
    await sleep(300)
    await server.restart()
    expect(await exited, stderr).toBe(0)
    expect(ackedAtKill).toBeLessThan(count)
    expect(acked).toHaveLength(count)

    const nc = await connect({ servers: server.url })
    const jsm = await jetstreamManager(nc)
    const subject = inboxSubject(team, 'sink')
    const info = await jsm.streams.info(MAIL_STREAM, { subjects_filter: subject })
    await nc.close()
    expect(info.state.subjects?.[subject]).toBe(count)

    const store = await openTeamStore(home, transport)
    const stored = (await store.mailbox.read(team, 'sink')).map((e) => e.message.id)
    expect((await store.tasks.get(team, 2))?.owner).toBe('w1')
    expect((await store.tasks.claim(team, 2, 'w2')).ok).toBe(false)
    expect((await store.tasks.create(team, { subject: 'after' })).id).toBe(4)
    await store.close()
    expect(new Set(stored).size).toBe(stored.length)
    expect(stored).toEqual(acked)
  }, 60_000)
})
