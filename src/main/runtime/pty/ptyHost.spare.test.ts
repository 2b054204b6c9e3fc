import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildSync } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findPidsWithEnv, isProcessAlive, snapshotProcesses } from '../processes'
import { sleepPids, uniqueSleepSeconds, until } from './pty.testkit'
import { createPtyHost } from './ptyHost'
import { MAX_SPARE_COMMAND_CHARS } from './spareShells'

let root: string
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'pty-spare-')))
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

type Host = ReturnType<typeof createPtyHost>

/** A ready spare's pid in `host` (after a command ran or `prewarm` asked for one). */
const spareOf = (host: Host) => until('a spare shell', () => host.sparePids()[0])

const run = (host: Host, command: string, cwd = root) => host.run({ command, cwd, timeoutMs: 20_000 })

describe('spare shells', () => {
  it('a command takes the waiting shell, and gets exactly what a new terminal gives it', async () => {
    const host = createPtyHost()
    try {
      host.prewarm({ cwd: root })
      const cases: Array<[string, string, number?]> = [
        // every byte the terminal would act on, typed or not, arrives as written
        [
          'printf "%s|" "a~b" "back\\\\slash" "héllo ✓" "tab\tX" "cr\rX" "ctl-c\x03X" "$(printf "l1\\nl2")"',
          'a~b|back\\slash|héllo ✓|tab\tX|cr\rX|ctl-c\x03X|l1\nl2|'
        ],
        ['echo "$# $0"; pwd', `0 bash\r\n${root}\r\n`],
        ['read -r line; echo "read $?"', 'read 1\r\n'],
        ['exit 7', '', 7],
        ['kill -TERM $$', '', 143],
        ['echo )', '', 2]
      ]
      for (const [command, output, exitCode = 0] of cases) {
        const spare = await spareOf(host)
        const result = await run(host, command)
        expect(result.pid, command).toBe(spare)
        expect(result.exitCode, command).toBe(exitCode)
        if (output) expect(result.output.replace(/\r\n/g, '\n'), command).toBe(output.replace(/\r\n/g, '\n'))
        expect(isProcessAlive(spare)).toBe(false)
      }
      // nothing carries over: each command had its own shell, session and tag
      await spareOf(host)
      await run(host, 'export SPARE_X=1; cd /')
      await spareOf(host)
      const after = await run(host, 'echo "${SPARE_X-unset} $(pwd)"; ps -o sid= -p $$')
      expect(after.output).toContain(`unset ${root}`)
      expect(after.output).toContain(String(after.pid))
      expect(host.livePids()).toEqual([])
    } finally {
      await host.dispose()
    }
  })

  it('a command that comes while the spare is still starting takes it, and runs once it is ready', async () => {
    // the window between the terminal's start and its shell's ready marker is a few ms: try until one is caught
    for (let attempt = 0; attempt < 40; attempt++) {
      const host = createPtyHost()
      try {
        host.prewarm({ cwd: root })
        while (host.sparePids(true).length === 0) await new Promise((r) => setImmediate(r))
        const starting = host.sparePids(true)[0]!
        if (host.sparePids().length > 0) continue // ready already: not this case
        const result = await run(host, 'echo "caught $#"; exit 4')
        expect(result.pid).toBe(starting)
        expect(result.output).toBe('caught 0\r\n')
        expect(result.exitCode).toBe(4)
        return
      } finally {
        await host.dispose()
      }
    }
    throw new Error('never caught a spare while it was starting in 40 attempts')
  })

  it('a spare that dies after it was taken and before it was ready hands the command to a new terminal, which runs it', async () => {
    const hold = join(root, 'hold-spare')
    const bashEnv = join(root, 'hold-spare.sh')
    // every bash of this host reads BASH_ENV first: the spare waits there, not ready, while `hold` exists
    writeFileSync(bashEnv, `while [ -e '${hold}' ]; do sleep 0.02; done\n`)
    const host = createPtyHost({ env: { BASH_ENV: bashEnv } })
    try {
      for (const how of ['run', 'spawn'] as const) {
        const ran = join(root, `ran-in-fallback-${how}`)
        const command = `echo ran >> '${ran}'; echo "fallback $#"; exit 5`
        writeFileSync(hold, '')
        host.prewarm({ cwd: root })
        const starting = await until('a starting spare', () => host.sparePids(true)[0])
        expect(host.sparePids()).toEqual([])
        let output = ''
        let exited!: (exit: { exitCode: number | null; signal: number | null }) => void
        const exit = new Promise<{ exitCode: number | null; signal: number | null }>((r) => (exited = r))
        const spawned =
          how === 'spawn'
            ? host.spawn({ command, cwd: root, onData: (d) => (output += d), onExit: (e) => exited(e) })
            : undefined
        const running = how === 'run' ? run(host, command) : undefined
        expect(host.sparePids(true)).toEqual([]) // taken
        process.kill(starting, 'SIGKILL')
        rmSync(hold)
        const result = running ? await running : { ...(await exit), pid: spawned!.pid, output: output }
        expect(result.pid, how).not.toBe(starting)
        expect(result.output, how).toBe('fallback 0\r\n')
        expect(result.exitCode, how).toBe(5)
        expect(result.signal, how).toBeNull()
        expect(readFileSync(ran, 'utf8'), how).toBe('ran\n') // once, in the new terminal
        expect(isProcessAlive(starting)).toBe(false)
        expect(isProcessAlive(result.pid)).toBe(false)
        expect(host.livePids()).toEqual([])
      }
    } finally {
      rmSync(hold, { force: true })
      await host.dispose()
    }
  })

  it("kills every process of its command, also one that kept the waiting shell's pid and left the session", async () => {
    const host = createPtyHost()
    try {
      host.prewarm({ cwd: root })
      const background = uniqueSleepSeconds()
      const escaped = uniqueSleepSeconds()
      let spare = await spareOf(host)
      // a job re-parented away from a session of its own: found by its tag among the pids handed out since
      expect((await run(host, `(setsid sleep ${background} &); echo started`)).pid).toBe(spare)
      expect(sleepPids(background)).toEqual([])
      // the waiting shell (started before the command) becomes a session leader and kills the wrapper
      spare = await spareOf(host)
      const result = await run(host, `exec setsid bash -c 'kill -9 $PPID; exec sleep ${escaped}'`)
      expect(result.pid).toBe(spare)
      expect(sleepPids(escaped)).toEqual([])
    } finally {
      await host.dispose()
    }
  })

  it('is not used for a folder made again, another environment, or a command too long to type', async () => {
    const host = createPtyHost()
    const dir = join(root, 'again')
    mkdirSync(dir)
    try {
      host.prewarm({ cwd: dir })
      const first = await spareOf(host)
      rmSync(dir, { recursive: true })
      mkdirSync(dir)
      writeFileSync(join(dir, 'new.txt'), '')
      const replaced = await run(host, 'ls', dir)
      expect(replaced.pid).not.toBe(first)
      expect(replaced.output.trim()).toBe('new.txt')
      expect(isProcessAlive(first)).toBe(false)

      const envSpare = await spareOf(host)
      const viaEnv = await host.run({ command: 'echo $SPARE_Y', cwd: dir, env: { SPARE_Y: 'y' }, timeoutMs: 20_000 })
      expect(viaEnv.pid).not.toBe(envSpare)
      expect(viaEnv.output.trim()).toBe('y')

      const long = `echo ${'x'.repeat(MAX_SPARE_COMMAND_CHARS)} | wc -c`
      const lengthSpare = await spareOf(host)
      const longRun = await run(host, long, dir)
      expect(longRun.pid).not.toBe(lengthSpare)
      expect(longRun.output.trim()).toBe(String(MAX_SPARE_COMMAND_CHARS + 1))
    } finally {
      await host.dispose()
    }
  })

  it('leaves no spare behind: dispose kills it, and so does the death of its host process', async () => {
    const tag = randomUUID()
    const host = createPtyHost({ env: { SPARE_HOST_TAG: tag } })
    host.prewarm({ cwd: root })
    const spare = await spareOf(host)
    await host.dispose()
    expect(isProcessAlive(spare)).toBe(false)
    expect(findPidsWithEnv('SPARE_HOST_TAG', tag, snapshotProcesses())).toEqual([])
    expect(() => host.prewarm({ cwd: root })).not.toThrow()
    expect(host.sparePids()).toEqual([])

    // a host process killed outright: its spare's terminal hangs up and the shell ends
    const crashTag = randomUUID()
    const entry = join(root, 'host.ts')
    writeFileSync(
      entry,
      [
        `import { createPtyHost } from ${JSON.stringify(join(__dirname, 'ptyHost'))}`,
        `const host = createPtyHost({ env: { SPARE_HOST_TAG: ${JSON.stringify(crashTag)} } })`,
        `host.prewarm({ cwd: ${JSON.stringify(root)} })`,
        `setInterval(() => { if (host.sparePids().length) console.log('ready') }, 20)`
      ].join('\n')
    )
    const bundle = join(root, 'host.cjs')
    buildSync({ entryPoints: [entry], outfile: bundle, bundle: true, platform: 'node', external: ['node-pty'] })
    const child = spawn(process.execPath, [bundle], {
      env: { ...process.env, NODE_PATH: join(process.cwd(), 'node_modules') },
      stdio: ['ignore', 'pipe', 'inherit']
    })
    try {
      let out = ''
      child.stdout.on('data', (d: Buffer) => (out += d.toString()))
      await until('the child host to have a spare', () => out.includes('ready'), 60_000)
      expect(findPidsWithEnv('SPARE_HOST_TAG', crashTag, snapshotProcesses()).length).toBeGreaterThan(0)
    } finally {
      child.kill('SIGKILL')
    }
    await until('the spare of the killed host to end', () =>
      findPidsWithEnv('SPARE_HOST_TAG', crashTag, snapshotProcesses()).filter(isProcessAlive).length === 0
        ? true
        : undefined
    )
  }, 120_000)
})
