import { execFile } from 'node:child_process'
import { relative } from 'node:path'
import type { TeammateHost } from '../../../../shared/teammateHosts'
import { shellQuote, sshOptionsOf } from './command'

/** How long one git or ssh step of a host teammate's start or end may take, ms. */
const STEP_TIMEOUT_MS = 120_000

/** Runs a program; resolves with its output. @throws Error with its stderr when it fails or times out. */
export function runProgram(
  file: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {}
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      args,
      {
        encoding: 'utf8',
        cwd: options.cwd,
        env: options.env ?? process.env,
        timeout: options.timeoutMs ?? STEP_TIMEOUT_MS,
        maxBuffer: 16 * 1024 * 1024
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${file} ${args[0] ?? ''} failed: ${(stderr || error.message).trim()}`))
        else resolve(stdout)
      }
    )
    // a program that does not read its stdin may be gone before it is written: that is no error
    child.stdin?.on('error', () => undefined)
    child.stdin?.end(options.input ?? '')
  })
}

/** Runs `script` on `host` by its login shell with `input` on its stdin (never a terminal). */
export function sshRun(host: TeammateHost, script: string, input = '', timeoutMs?: number): Promise<string> {
  return runProgram('ssh', [...sshOptionsOf(host), '-o', 'ConnectTimeout=15', '--', host.destination, script], {
    input,
    ...(timeoutMs ? { timeoutMs } : {})
  })
}

/** The leader's repository at a teammate's start: its top folder, HEAD, and where the workspace is in it. */
export interface LeaderRepo {
  top: string
  head: string
  /** The workspace relative to `top` (`''` at the top). */
  sub: string
}

/** The repository `cwd` is in, at a commit; undefined when it is none or has no commit yet. */
export async function leaderRepo(cwd: string): Promise<LeaderRepo | undefined> {
  try {
    const [top, head] = (await runProgram('git', ['rev-parse', '--show-toplevel', 'HEAD'], { cwd })).trim().split('\n')
    if (!top || !head) return undefined
    return { top, head, sub: relative(top, cwd) }
  } catch {
    return undefined
  }
}

/** Git's environment for talking to `host`: its ssh options, a bounded connect time. */
function gitSshEnv(host: TeammateHost): NodeJS.ProcessEnv {
  const command = ['ssh', ...sshOptionsOf(host), '-o', 'ConnectTimeout=15'].map(shellQuote).join(' ')
  return { ...process.env, GIT_SSH_COMMAND: command, GIT_TERMINAL_PROMPT: '0' }
}

/**
 * Pushes the leader's HEAD to the teammate's clone on the host as `branch` (docs/hosts.md#the-workspace-on-the-host),
 * over ssh with the host's options. The clone exists (an empty repository made by the start).
 * @throws Error with git's message.
 */
export async function pushBranch(repo: LeaderRepo, host: TeammateHost, dir: string, branch: string): Promise<void> {
  await runProgram(
    'git',
    ['push', '--quiet', '--no-verify', '--force', `${host.destination}:${dir}`, `${repo.head}:refs/heads/${branch}`],
    { cwd: repo.top, env: gitSshEnv(host) }
  )
}

/**
 * Brings `branch` back from the teammate's clone into the leader's repository (same name), and
 * counts its commits over the commit it started from. A branch with none is deleted again.
 * @returns the number of new commits (0: nothing kept).
 * @throws Error with git's message (the host unreachable, the clone gone).
 */
export async function fetchBranch(repo: LeaderRepo, host: TeammateHost, dir: string, branch: string): Promise<number> {
  await runProgram(
    'git',
    ['fetch', '--quiet', '--no-tags', `${host.destination}:${dir}`, `+refs/heads/${branch}:refs/heads/${branch}`],
    { cwd: repo.top, env: gitSshEnv(host) }
  )
  const count = Number(
    (await runProgram('git', ['rev-list', '--count', `${repo.head}..${branch}`], { cwd: repo.top })).trim()
  )
  if (count === 0) await runProgram('git', ['branch', '-q', '-D', branch], { cwd: repo.top }).catch(() => undefined)
  return count
}
