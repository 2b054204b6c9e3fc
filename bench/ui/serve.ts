import { spawn } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { packageRoot } from '../../src/main/runtime/install/packageRoot'

/** A running `swarmdesk serve` (the real web host and runtime) of the benchmark. */
export interface BenchServe {
  /** The page with its token (`SWARMDESK_URL`). */
  url: string
  /** The serve process (the runtime, the PTY host and the web host all run in it). */
  pid: number
  /** Everything it wrote to stderr so far. */
  stderr(): string
  /** SIGTERM (SIGKILL after 10 s); resolves the exit code and removes its SWARMDESK_HOME. */
  stop(): Promise<number | null>
}

/**
 * Starts `node bin/swarmdesk serve --cwd <cwd> --scenario <file> --port 0 --permission-mode
 * bypassPermissions` (the benchmark's commands must not stop to ask) with a fresh SWARMDESK_HOME,
 * and waits for its `SWARMDESK_URL` line. Needs the Node bundles and the renderer built.
 * `cpuProfile` (a `.cpuprofile` path) has Node's sampling profiler record serve's whole life,
 * written when it exits (`--cpu-prof`).
 * @throws Error with serve's stderr when it exits or prints no URL within 30 s.
 */
export async function startBenchServe(
  cwd: string,
  scenario: object,
  options: { cpuProfile?: string } = {}
): Promise<BenchServe> {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-bench-ui-home-')))
  const scenarioFile = join(home, 'scenario.json')
  writeFileSync(scenarioFile, JSON.stringify(scenario, null, 2))
  const env: NodeJS.ProcessEnv = { ...process.env, SWARMDESK_HOME: home }
  delete env.ANTHROPIC_API_KEY
  delete env.ANTHROPIC_BASE_URL
  const bin = join(packageRoot(), 'bin', 'swarmdesk')
  const profile = options.cpuProfile
    ? ['--cpu-prof', '--cpu-prof-dir', dirname(options.cpuProfile), '--cpu-prof-name', basename(options.cpuProfile)]
    : []
  const child = spawn(
    process.execPath,
    [
      ...profile,
      bin,
      'serve',
      '--cwd',
      cwd,
      '--scenario',
      scenarioFile,
      '--port',
      '0',
      '--permission-mode',
      'bypassPermissions'
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'] }
  )
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('swarmdesk serve printed no SWARMDESK_URL within 30 s')), 30_000)
    void exited.then((code) =>
      reject(new Error(`swarmdesk serve exited with code ${code} before printing SWARMDESK_URL`))
    )
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^SWARMDESK_URL (\S+)$/.exec(line)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
  }).catch((error: Error) => {
    child.kill('SIGKILL')
    rmSync(home, { recursive: true, force: true })
    throw new Error(`${error.message}\n--- serve stderr ---\n${stderr}`)
  })
  child.stdout!.resume()
  let stopping: Promise<number | null> | undefined
  return {
    url,
    pid: child.pid!,
    stderr: () => stderr,
    stop: () =>
      (stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
        const code = await exited
        clearTimeout(timer)
        rmSync(home, { recursive: true, force: true })
        return code
      })())
  }
}
