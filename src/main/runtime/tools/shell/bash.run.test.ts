import { type PtyHost } from '../../pty/types'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPtyHost } from '../../pty/ptyHost'
import { pidsWithCommandLine, uniqueSleepSeconds } from '../../pty/pty.testkit'
import { BashTool } from './bash'
import { MODEL_OUTPUT_CAP } from './bashFormat'
import { shellToolContext } from './bash.testkit'

let host: PtyHost
let root: string

beforeAll(() => {
  host = createPtyHost()
  root = realpathSync(mkdtempSync(join(tmpdir(), 'bash-tool-')))
})

afterAll(async () => {
  await host.dispose()
  rmSync(root, { recursive: true, force: true })
})

const bash = (command: string, extra: { timeout?: number; signal?: AbortSignal } = {}) => {
  const ctx = shellToolContext(host, root, extra.signal)
  return BashTool.call({ command, timeout: extra.timeout }, ctx).then((result) => ({
    ...result,
    streamed: ctx.streamed()
  }))
}

describe('Bash tool', () => {
  it('returns the output of a command', async () => {
    expect(await bash('echo hello')).toMatchObject({ content: 'hello' })
    expect((await bash('echo hello')).isError).toBeUndefined()
  })

  it('says (no output) when a command prints nothing', async () => {
    expect((await bash('true')).content).toBe('(no output)')
  })

  it('appends the exit code and marks the result an error on a non-zero exit', async () => {
    expect(await bash('echo oops; exit 3')).toMatchObject({ content: 'oops\nExit code 3', isError: true })
    expect(await bash('exit 1')).toMatchObject({ content: 'Exit code 1', isError: true })
  })

  it('pins the cwd and carries no state between calls', async () => {
    await bash('cd /tmp && export X=1')
    expect((await bash('pwd')).content).toBe(root)
    expect((await bash('echo "[$X]"')).content).toBe('[]')
  })

  it('strips ANSI for the model while the pane gets it raw, and collapses progress redraws', async () => {
    const result = await bash("printf '\\033[1;32mgreen\\033[0m\\n'; printf 'get 10%%\\rget 50%%\\rget 100%%\\n'")
    expect(result.content).toBe('green\nget 100%')
    expect(result.streamed).toContain('\x1b[1;32mgreen\x1b[0m')
  })

  it('caps huge output at 30,000 characters, keeping head and tail around a marker', async () => {
    const heapBefore = process.memoryUsage().heapUsed
    const result = await bash('seq 1 2000000')
    expect(result.content.length).toBeLessThanOrEqual(MODEL_OUTPUT_CAP)
    expect(result.content.startsWith('1\n2\n3\n')).toBe(true)
    expect(result.content.endsWith('1999999\n2000000')).toBe(true)
    const cut = Number(/\n\n\[\.\.\. (\d+) characters truncated \.\.\.\]\n\n/.exec(result.content)?.[1])
    const cleanLength = 14_888_896 - 1 // "1\n…2000000\n" minus the trimmed final newline
    const markerLength =
      result.content.length - result.content.replace(/\n\n\[\.\.\. \d+ characters truncated \.\.\.\]\n\n/, '').length
    expect(cut + result.content.length - markerLength).toBe(cleanLength)
    expect(result.streamed.length).toBeGreaterThan(16_000_000)
    // The tool result holds 30,000 characters; what the host kept for it is bounded at ~2 MiB.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024)
  })

  it('kills a command that outlives its timeout and says so', async () => {
    const secs = uniqueSleepSeconds()
    const started = Date.now()
    const result = await bash(`echo started; sleep ${secs}`, { timeout: 500 })
    expect(result).toMatchObject({
      content: 'started\nCommand timed out after 500 ms (process group killed)',
      isError: true
    })
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(pidsWithCommandLine(`sleep ${secs}`)).toEqual([])
  })

  it('stops when the call is aborted and says so', async () => {
    const secs = uniqueSleepSeconds()
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 300)
    const result = await bash(`sleep ${secs} & sleep ${secs}`, { signal: controller.signal })
    expect(result).toMatchObject({ content: 'Command was aborted', isError: true })
    expect(pidsWithCommandLine(`sleep ${secs}`)).toEqual([])
  })

  it('sets PAGER=cat so pagers never wait for a key', async () => {
    expect((await bash('echo "$PAGER $GIT_PAGER $GIT_TERMINAL_PROMPT"')).content).toBe('cat cat 0')
  })
})

describe('Bash tool with git', () => {
  let repo: string

  beforeAll(() => {
    repo = join(root, 'repo')
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { stdio: 'ignore' })
    execFileSync('git', ['init', '-q', repo])
    git('config', 'user.email', 't@example.com')
    git('config', 'user.name', 'Tester')
    // One fast-import stream instead of 100 `git commit` processes.
    let stream = ''
    for (let i = 1; i <= 100; i++) {
      stream += `commit refs/heads/main\ncommitter Tester <t@example.com> ${1_700_000_000 + i} +0000\ndata <<EOM\ncommit number ${i}\nEOM\n`
      stream += '\n'
    }
    execFileSync('git', ['-C', repo, 'fast-import', '--quiet'], { input: stream })
    git('symbolic-ref', 'HEAD', 'refs/heads/main')
  })

  it('runs git log over 100 commits without hanging in a pager', async () => {
    const ctx = shellToolContext(host, repo)
    const result = await BashTool.call({ command: 'git log', timeout: 15_000 }, ctx)
    expect(result.isError).toBeUndefined()
    expect(result.content).toContain('commit number 100')
    expect(result.content).toMatch(/ {4}commit number 1$/)
  })

  it('runs git with core.pager=less without hanging', async () => {
    const ctx = shellToolContext(host, repo)
    const result = await BashTool.call({ command: 'git -c core.pager=less log --oneline', timeout: 15_000 }, ctx)
    expect(result.isError).toBeUndefined()
    expect(result.content.split('\n')).toHaveLength(100)
  })
})

describe('Bash tool input and permissions', () => {
  it('accepts a timeout up to 600000 ms and rejects more', () => {
    expect(BashTool.inputSchema.safeParse({ command: 'ls', timeout: 600_000 }).success).toBe(true)
    expect(BashTool.inputSchema.safeParse({ command: 'ls', timeout: 600_001 }).success).toBe(false)
    expect(BashTool.inputSchema.safeParse({ command: 'ls', timeout: -1 }).success).toBe(false)
    expect(BashTool.inputSchema.safeParse({ timeout: 10 }).success).toBe(false)
  })

  it('asks the permission engine about the command and never claims to be read-only', () => {
    const input = { command: 'git status' }
    expect(BashTool.permissionSubject(input, { cwd: '/' })).toEqual({ kind: 'bash', command: 'git status' })
    expect(BashTool.isReadOnly(input)).toBe(false)
    expect(BashTool.isConcurrencySafe(input)).toBe(false)
  })
})
