import { Terminal } from '@xterm/headless'
import * as nodePty from 'node-pty'
import { mkdir, readdir, readFile, realpath, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { CLAUDE_CODE_VERSION } from './claudeCode.testkit'

/**
 * Test support: the real Claude Code's interactive TUI in a real node-pty, against the scripted
 * model (docs/model.md#claude-code). The config it starts with is the
 * one a first run leaves behind, so no first-run screen stands between the test and the prompt:
 *
 * - `$CLAUDE_CONFIG_DIR/.claude.json` (Claude Code reads its global config there when
 *   `CLAUDE_CONFIG_DIR` is set, else `$HOME/.claude.json`): `hasCompletedOnboarding` (without it
 *   the onboarding's connectivity check to api.anthropic.com prints "Unable to connect to
 *   Anthropic services" and stops), `lastOnboardingVersion`, a `theme`, the workspace's
 *   `projects[<realpath>].hasTrustDialogAccepted`, and the test key's last 20 characters in
 *   `customApiKeyResponses.approved` (else it asks whether to use the key);
 * - `$CLAUDE_CONFIG_DIR/settings.json`: `skipDangerousModePermissionPrompt` (the bypass-mode
 *   warning) and `teammateMode: "in-process"`.
 */

/** The API key the test's claude uses (any value: the scripted model takes every key). */
export const INTERACTIVE_API_KEY = 'sk-ant-scripted-model-interactive-test'

/** Options of {@link seedClaudeConfig}. */
export interface SeedOptions {
  /** `CLAUDE_CONFIG_DIR`: created when missing. */
  configDir: string
  /** Folders to trust (the workspace, worktrees): each is trusted with everything under it. */
  trusted: string[]
  /** The key to approve; default {@link INTERACTIVE_API_KEY}. */
  apiKey?: string
  /** Extra user settings merged over the seeded ones. */
  settings?: Record<string, unknown>
}

/** Writes the config a finished first run leaves (see the module's comment) into `configDir`. */
export async function seedClaudeConfig(options: SeedOptions): Promise<void> {
  await mkdir(options.configDir, { recursive: true })
  const projects: Record<string, unknown> = {}
  for (const folder of options.trusted) {
    const real = await realpath(folder)
    for (const key of new Set([folder, real]))
      projects[key] = { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] }
  }
  const global = {
    numStartups: 1,
    hasCompletedOnboarding: true,
    lastOnboardingVersion: CLAUDE_CODE_VERSION,
    lastReleaseNotesSeen: CLAUDE_CODE_VERSION,
    theme: 'dark',
    autoUpdates: false,
    hasSeenTasksHint: true,
    hasIdeOnboardingBeenShown: { vscode: true },
    customApiKeyResponses: { approved: [(options.apiKey ?? INTERACTIVE_API_KEY).slice(-20)], rejected: [] },
    projects
  }
  await writeFile(join(options.configDir, '.claude.json'), JSON.stringify(global, null, 2))
  const settings = {
    skipDangerousModePermissionPrompt: true,
    teammateMode: 'in-process',
    ...options.settings
  }
  await writeFile(join(options.configDir, 'settings.json'), JSON.stringify(settings, null, 2))
}

/** Options of {@link startInteractiveClaude}. */
export interface InteractiveOptions {
  /** The scripted model server's URL. */
  baseUrl: string
  /** Working directory (trusted by the seeded config). */
  cwd: string
  /** Scratch `HOME`; `CLAUDE_CONFIG_DIR` is `<home>/.claude` unless `configDir` is given. */
  home: string
  configDir?: string
  /** Arguments after `claude`, e.g. `['--dangerously-skip-permissions']` or `['--resume', id]`. */
  args?: string[]
  /** `CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1` and `--teammate-mode in-process`. */
  teams?: boolean
  env?: Record<string, string>
  /** Skip seeding (a test that seeds its own config). */
  seeded?: false
  cols?: number
  rows?: number
}

/** What Claude Code writes in `sessions/<pid>.json` while it runs (the fields tests read). */
export interface ClaudeSessionRecord {
  pid: number
  sessionId: string
  cwd: string
  /** `busy`, `idle`, `waiting` (then `waitingFor` says for what) or `shell`. */
  status?: string
  waitingFor?: string
  [key: string]: unknown
}

/** A running interactive claude; see {@link startInteractiveClaude}. */
export interface InteractiveClaude {
  readonly pid: number
  readonly configDir: string
  /** The screen as a person sees it now: one string per row, trailing blanks trimmed. */
  screen(): string
  /** Everything the pty printed so far, raw. */
  output(): string
  /**
   * Resolves with the screen once it shows `text` (a RegExp is tested on the joined rows).
   * @throws Error with the screen and the exit status when `timeoutMs` (default 30 s) passes or claude exits first.
   */
  waitForScreen(text: string | RegExp, timeoutMs?: number): Promise<string>
  /** Types `text` as a person would (one write, then a pause, then Enter). */
  submit(text: string): Promise<void>
  /** Raw bytes to the terminal (`\x1b` for Escape, `\r` for Enter, `\x03` for Ctrl-C). */
  write(data: string): void
  /** Its `sessions/<pid>.json`, or undefined while it has written none. */
  sessionRecord(): Promise<ClaudeSessionRecord | undefined>
  /** Resolves with its exit code once it has exited. */
  readonly exited: Promise<number>
  /** SIGKILLs its whole process group and resolves once the pty reports its exit. Safe to call twice. */
  kill(): Promise<void>
}

/**
 * Starts the real `claude` (`bin`, e.g. from `installClaudeCode()`) interactively in a node-pty of
 * `cols` × `rows` (default 120 × 40) with a scratch HOME and CLAUDE_CONFIG_DIR seeded by
 * {@link seedClaudeConfig} (the cwd trusted), `IS_SANDBOX=1` (bypass mode as root) and no
 * nonessential traffic. Its output is rendered by @xterm/headless, so tests read the screen.
 */
export async function startInteractiveClaude(bin: string, options: InteractiveOptions): Promise<InteractiveClaude> {
  const configDir = options.configDir ?? join(options.home, '.claude')
  await mkdir(options.home, { recursive: true })
  if (options.seeded !== false) await seedClaudeConfig({ configDir, trusted: [options.cwd] })
  const cols = options.cols ?? 120
  const rows = options.rows ?? 40
  const terminal = new Terminal({ cols, rows, scrollback: 5000, allowProposedApi: true })
  const args = [...(options.teams ? ['--teammate-mode', 'in-process'] : []), ...(options.args ?? [])]
  const term = nodePty.spawn(bin, args, {
    name: 'xterm-256color',
    cols,
    rows,
    cwd: options.cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: options.home,
      CLAUDE_CONFIG_DIR: configDir,
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      ANTHROPIC_BASE_URL: options.baseUrl,
      ANTHROPIC_API_KEY: INTERACTIVE_API_KEY,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      IS_SANDBOX: '1',
      ...(options.teams ? { CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: '1' } : {}),
      ...options.env
    }
  })
  let raw = ''
  let exitCode: number | undefined
  term.onData((chunk) => {
    raw += chunk
    terminal.write(chunk)
  })
  const exited = new Promise<number>((resolve) =>
    term.onExit(({ exitCode: code }) => {
      exitCode = code
      resolve(code)
    })
  )
  // a render after the last write: xterm parses asynchronously
  const flushed = () => new Promise<void>((resolve) => terminal.write('', resolve))
  const screen = (): string => {
    const buffer = terminal.buffer.active
    const lines: string[] = []
    for (let row = 0; row < terminal.rows; row++)
      lines.push(buffer.getLine(buffer.viewportY + row)?.translateToString(true) ?? '')
    return lines.join('\n').replace(/\n+$/, '')
  }
  const matches = (text: string | RegExp, shown: string) =>
    typeof text === 'string' ? shown.includes(text) : text.test(shown)
  let killing: Promise<void> | undefined
  return {
    pid: term.pid,
    configDir,
    screen,
    output: () => raw,
    exited,
    async waitForScreen(text, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        await flushed()
        const shown = screen()
        if (matches(text, shown)) return shown
        if (exitCode !== undefined || Date.now() > deadline)
          throw new Error(
            `claude's screen never showed ${String(text)} (${exitCode !== undefined ? `exited ${exitCode}` : `${timeoutMs} ms`}):\n${shown}`
          )
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    async submit(text) {
      term.write(text)
      // an Enter in the same write as the text is taken as a pasted newline
      await new Promise((resolve) => setTimeout(resolve, 300))
      term.write('\r')
    },
    write: (data) => term.write(data),
    async sessionRecord() {
      try {
        return JSON.parse(
          await readFile(join(configDir, 'sessions', `${term.pid}.json`), 'utf8')
        ) as ClaudeSessionRecord
      } catch {
        return undefined
      }
    },
    kill() {
      killing ??= (async () => {
        if (exitCode === undefined) {
          try {
            process.kill(-term.pid, 'SIGKILL')
          } catch {
            // already gone
          }
          await exited
        }
        terminal.dispose()
      })()
      return killing
    }
  }
}

/** Every `sessions/*.json` record under `configDir` (Claude Code removes its own on a clean exit). */
export async function sessionRecords(configDir: string): Promise<ClaudeSessionRecord[]> {
  const folder = join(configDir, 'sessions')
  const names = await readdir(folder).catch(() => [] as string[])
  const out: ClaudeSessionRecord[] = []
  for (const name of names.filter((n) => /^\d+\.json$/.test(n))) {
    try {
      out.push(JSON.parse(await readFile(join(folder, name), 'utf8')) as ClaudeSessionRecord)
    } catch {
      // mid-write
    }
  }
  return out
}
