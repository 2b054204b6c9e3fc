import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import type { MessageCreateParams } from '@anthropic-ai/sdk/resources/messages'

/** The swarmdesk executable of this checkout. */
const SWARMDESK_BIN = resolve(__dirname, '..', 'bin', 'swarmdesk')

/** One request of the scripted model's log as the e2e tests read it (src/main/runtime/scripted/state.ts). */
export interface ModelRequest {
  body: MessageCreateParams
  /** Lower-case names. */
  headers: Record<string, string>
}

/** A running `swarmdesk serve` child process and what it printed. */
export interface ServedWorkspace {
  /** `SWARMDESK_URL`: the page, token included. */
  url: string
  /** The page's origin, `http://127.0.0.1:PORT`. */
  origin: string
  port: number
  token: string
  /** `SCRIPTED_MODEL_URL`: the scripted model server of this workspace (printed before SWARMDESK_URL). */
  scriptedUrl: string | undefined
  /** The workspace directory (a fresh git repository). */
  cwd: string
  /** SWARMDESK_HOME of the child. */
  home: string
  /** Everything the child wrote to stderr so far. */
  stderr(): string
  /** Everything the child wrote to stdout so far. */
  stdout(): string
  /**
   * The scripted model's request log (`GET /_scripted/requests`): the bodies it received, each a
   * Messages API request as serve's SDK client sends it, and their headers.
   */
  modelRequests(): Promise<ModelRequest[]>
  /** SIGTERM, then waits for the exit; resolves the exit code (SIGKILL after 10 s gives null). */
  stop(): Promise<number | null>
  /** The serve process's pid. */
  pid: number
  /** `kill -9` of serve, as a crash would end it, keeping its home (restore tests start again on it). Resolves once it has exited. */
  crash(): Promise<void>
}

/**
 * Starts `node bin/swarmdesk serve --cwd <cwd> --scenario <file> --port 0` (plus
 * `--permission-mode` when given, for scenarios whose commands would otherwise ask) with SWARMDESK_HOME in a
 * fresh temp dir, and reads its `SWARMDESK_URL` and `SCRIPTED_MODEL_URL` lines. With `model`
 * instead of `scenario`, serve talks to that endpoint with that key as to any Anthropic-compatible
 * one (ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY). Builds nothing: `npm run build` must have run (the
 * test script does it first).
 * @throws Error with the child's stderr when it exits or prints nothing usable within 30 s.
 */
export async function startServe(options: {
  cwd: string
  scenario?: object
  /**
   * `scripted: false` hides that the endpoint is a scripted server: serve then treats it as any
   * Anthropic-compatible endpoint. `apiKey` omitted: serve starts with no ANTHROPIC_API_KEY (a first
   * run), and the endpoint is then treated as any other, as it is for a person.
   */
  model?: { baseUrl: string; apiKey?: string; scripted?: boolean }
  permissionMode?: string
  fork?: boolean
  /** Restore tests: start on this SWARMDESK_HOME (a crashed run's) instead of a fresh one; stop() then leaves it. */
  home?: string
  /** `--new-session`. */
  newSession?: boolean
  /** No `--port` flag: serve listens where this workspace was served last from `home` (a restart the open tab should survive). */
  rememberedPort?: boolean
  /** More flags (`--claude-session`…) and environment (a Claude Code session's config) for serve. */
  extraArgs?: string[]
  extraEnv?: Record<string, string>
}): Promise<ServedWorkspace> {
  if (!options.scenario === !options.model) throw new Error('startServe needs a scenario or a model endpoint, not both')
  const ownHome = options.home === undefined
  const home = options.home ?? realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-e2e-home-')))
  const env: NodeJS.ProcessEnv = { ...process.env, SWARMDESK_HOME: home, NO_COLOR: '1' }
  // Playwright's runner sets FORCE_COLOR; with NO_COLOR beside it, Node prints a warning into every process teammate's pane
  delete env.FORCE_COLOR
  delete env.ANTHROPIC_API_KEY
  delete env.ANTHROPIC_BASE_URL
  delete env.SWARMDESK_SCRIPTED_MODEL_URL
  // Claude Code's teams show on every dashboard: never the machine's own ~/.claude in a test
  env.CLAUDE_CONFIG_DIR ??= join(home, 'claude-config')
  const args = [SWARMDESK_BIN, 'serve', '--cwd', options.cwd, ...(options.rememberedPort ? [] : ['--port', '0'])]
  if (options.scenario) {
    const scenarioFile = join(home, 'scenario.json')
    writeFileSync(scenarioFile, JSON.stringify(options.scenario, null, 2))
    args.push('--scenario', scenarioFile)
  } else {
    env.ANTHROPIC_BASE_URL = options.model!.baseUrl
    if (options.model!.apiKey !== undefined) env.ANTHROPIC_API_KEY = options.model!.apiKey
    // the endpoint is a scripted model server the test started: tell serve so (its requests then carry the identity headers per-agent scripts need)
    if (options.model!.scripted !== false && options.model!.apiKey !== undefined)
      env.SWARMDESK_SCRIPTED_MODEL_URL = options.model!.baseUrl
  }
  if (options.permissionMode) args.push('--permission-mode', options.permissionMode)
  if (options.fork) args.push('--fork')
  if (options.newSession) args.push('--new-session')
  if (options.extraArgs) args.push(...options.extraArgs)
  Object.assign(env, options.extraEnv)
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  let stdout = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))

  let lines: Record<string, string>
  try {
    lines = await readUrlLines(child, exited)
  } catch (error) {
    child.kill('SIGKILL')
    if (ownHome) rmSync(home, { recursive: true, force: true })
    throw new Error(`${(error as Error).message}\n--- serve stderr ---\n${stderr}`, { cause: error })
  }
  const url = new URL(lines.SWARMDESK_URL!)
  const page = await fetch(url)
  if (page.status === 503) {
    child.kill('SIGKILL')
    if (ownHome) rmSync(home, { recursive: true, force: true })
    throw new Error(
      `The renderer is not built: ${await page.text()}(npm test builds before the e2e tests; run \`npm run build\` when running them alone.)`
    )
  }
  const scriptedUrl = lines.SCRIPTED_MODEL_URL
  let stopping: Promise<number | null> | undefined
  return {
    url: url.href,
    origin: url.origin,
    port: Number(url.port),
    token: url.searchParams.get('token') ?? '',
    scriptedUrl,
    cwd: options.cwd,
    home,
    stderr: () => stderr,
    stdout: () => stdout,
    modelRequests: async () => {
      if (!scriptedUrl) throw new Error('swarmdesk serve printed no SCRIPTED_MODEL_URL line before SWARMDESK_URL')
      return (await (await fetch(`${scriptedUrl}/_scripted/requests`)).json()) as ModelRequest[]
    },
    stop: () =>
      (stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
        const code = await exited
        clearTimeout(timer)
        if (ownHome) rmSync(home, { recursive: true, force: true })
        return code
      })()),
    pid: child.pid!,
    crash: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    }
  }
}

/** Reads `KEY value` lines up to and including `SWARMDESK_URL`, which serve prints last. */
async function readUrlLines(child: ChildProcess, exited: Promise<number | null>): Promise<Record<string, string>> {
  const found: Record<string, string> = {}
  const lines = createInterface({ input: child.stdout! })
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error('swarmdesk serve printed no SWARMDESK_URL line within 30 s')), 30_000).unref()
  )
  const died = exited.then((code) => {
    throw new Error(`swarmdesk serve exited with code ${code} before printing SWARMDESK_URL`)
  })
  died.catch(() => undefined)
  const read = (async () => {
    for await (const line of lines) {
      const match = /^([A-Z_]+) (\S+)$/.exec(line)
      if (match) found[match[1]!] = match[2]!
      if (found.SWARMDESK_URL) return found
    }
    throw new Error('swarmdesk serve closed its stdout early')
  })()
  try {
    return await Promise.race([read, died, timeout])
  } finally {
    // Keep draining stdout so the child never blocks on a full pipe.
    child.stdout!.resume()
  }
}
