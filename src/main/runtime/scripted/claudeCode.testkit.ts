import { execFile, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** The Claude Code release the interop tests run (docs/model.md#claude-code): pinned, so a new release never changes a test. */
export const CLAUDE_CODE_VERSION = '2.1.197'

/** Where installs are cached across runs: `SWARMDESK_TEST_CACHE`, else `~/.cache/swarmdesk-tests`. */
export function testCacheDir(): string {
  return process.env.SWARMDESK_TEST_CACHE ?? join(homedir(), '.cache', 'swarmdesk-tests')
}

/** The installed `claude`, or why it could not be installed (the registry unreachable). */
export type ClaudeCodeInstall = { bin: string; skip?: undefined } | { bin?: undefined; skip: string }

// npm's errors when the registry cannot be reached at all (as opposed to a broken install, which fails the test)
const UNREACHABLE =
  /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|ERR_SOCKET_TIMEOUT)\b/

/**
 * Installs `@anthropic-ai/claude-code@CLAUDE_CODE_VERSION` from the npm registry into the test
 * cache once (its native binary comes with the platform package `@anthropic-ai/claude-code-linux-x64`;
 * install scripts are not needed) and returns its `claude`. The install goes to a temporary folder
 * renamed into place, so an interrupted one is never taken for a finished one.
 * @returns `{skip}` with npm's reason when the registry cannot be reached.
 * @throws the npm error for any other failure.
 */
export async function installClaudeCode(): Promise<ClaudeCodeInstall> {
  const root = join(testCacheDir(), `claude-code-${CLAUDE_CODE_VERSION}`)
  const bin = join(root, 'node_modules', '.bin', 'claude')
  if (existsSync(bin)) return { bin }
  await mkdir(testCacheDir(), { recursive: true })
  const staging = await mkdtemp(join(testCacheDir(), 'installing-'))
  try {
    await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--no-save',
        '--prefix',
        staging,
        `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`
      ],
      { timeout: 600_000 }
    )
  } catch (error) {
    await rm(staging, { recursive: true, force: true })
    const text = `${(error as { stderr?: string }).stderr ?? ''} ${(error as Error).message}`
    if (UNREACHABLE.test(text))
      return {
        skip: `the npm registry cannot be reached to install @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}: ${UNREACHABLE.exec(text)![1]}`
      }
    throw error
  }
  try {
    await rename(staging, root)
  } catch (error) {
    // another test process finished the same install first
    await rm(staging, { recursive: true, force: true })
    if (!existsSync(bin)) throw error
  }
  return { bin }
}

/** The result of one `claude` run. */
export interface ClaudeRun {
  code: number | null
  stdout: string
  stderr: string
}

/** The environment of a test's `claude`: see {@link runClaude}. */
function claudeEnv(options: { baseUrl: string; home: string }): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.home,
    ANTHROPIC_BASE_URL: options.baseUrl,
    ANTHROPIC_API_KEY: 'scripted-model',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    IS_SANDBOX: '1'
  }
}

/**
 * Runs the real `claude` against a scripted model server, offline: a scratch `HOME`, a dummy key,
 * no nonessential traffic, and `IS_SANDBOX=1` (which its bypass mode needs as root).
 */
export function runClaude(
  bin: string,
  args: string[],
  options: { baseUrl: string; cwd: string; home: string; timeoutMs?: number }
): Promise<ClaudeRun> {
  return new Promise((resolve, reject) => {
    // stdin closed: `claude -p` otherwise waits 3 s for piped input and warns
    const child = spawn(bin, args, {
      cwd: options.cwd,
      timeout: options.timeoutMs ?? 120_000,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: claudeEnv(options)
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** One `control_request` of Claude Code's stream-json input (what its Agent SDK sends): `subtype` and its fields. */
export type ClaudeControlRequest = { subtype: string } & Record<string, unknown>

/** A {@link runClaudeControl} run: the `response` of each request, in order, and the run's output. */
export interface ClaudeControlRun extends ClaudeRun {
  responses: unknown[]
}

/**
 * Runs the real `claude -p --input-format stream-json --output-format stream-json` (as the Agent
 * SDK drives it) and sends it control requests one at a time, `initialize` first, each after the
 * previous one's `control_response`; then closes its input, which ends it.
 * @throws when `claude` ends, or `timeoutMs` passes, before every request is answered.
 */
export function runClaudeControl(
  bin: string,
  requests: ClaudeControlRequest[],
  options: { baseUrl: string; cwd: string; home: string; env?: Record<string, string>; timeoutMs?: number }
): Promise<ClaudeControlRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'], {
      cwd: options.cwd,
      timeout: options.timeoutMs ?? 120_000,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...claudeEnv(options), ...options.env }
    })
    const queue: ClaudeControlRequest[] = [{ subtype: 'initialize' }, ...requests]
    const responses: unknown[] = []
    let stdout = ''
    let stderr = ''
    let pending = ''
    const next = () => {
      const request = queue.shift()
      if (!request) return child.stdin.end()
      child.stdin.write(`${JSON.stringify({ type: 'control_request', request_id: `r${responses.length}`, request })}\n`)
    }
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      pending += chunk.toString()
      const lines = pending.split('\n')
      pending = lines.pop()!
      for (const line of lines) {
        if (!line.startsWith('{')) continue
        const message = JSON.parse(line) as { type?: string; response?: { request_id?: string; response?: unknown } }
        if (message.type !== 'control_response' || message.response?.request_id !== `r${responses.length}`) continue
        responses.push(message.response.response)
        next()
      }
    })
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      if (queue.length > 0 || responses.length < requests.length + 1)
        reject(new Error(`claude ended (code ${code}) before answering every control request: ${stderr}${stdout}`))
      else resolve({ code, stdout, stderr, responses: responses.slice(1) })
    })
    next()
  })
}

/** A scratch folder for one test. */
export function scratch(prefix: string): Promise<string> {
  return mkdtemp(join(process.env.TMPDIR ?? '/tmp', prefix))
}
