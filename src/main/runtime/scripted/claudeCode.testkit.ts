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
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: options.home,
        ANTHROPIC_BASE_URL: options.baseUrl,
        ANTHROPIC_API_KEY: 'scripted-model',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        IS_SANDBOX: '1'
      }
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** A scratch folder for one test. */
export function scratch(prefix: string): Promise<string> {
  return mkdtemp(join(process.env.TMPDIR ?? '/tmp', prefix))
}
