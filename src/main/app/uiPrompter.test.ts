import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { PendingPermission } from '../../shared/ipc'
import type { PermissionPromptRequest } from '../../shared/permissions'
import { UiPrompter, UnofferedRuleError } from './uiPrompter'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ui-prompter-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function request(over: Partial<PermissionPromptRequest> = {}): PermissionPromptRequest {
  return {
    requestId: 'r1',
    agentId: 'alice@team',
    agentName: 'alice',
    tool: 'Bash',
    input: { command: 'npm test' },
    reason: 'Bash commands ask in default mode',
    suggestions: ['Bash(npm test:*)'],
    ...over
  }
}

/** Starts a prompt and resolves once its card is listed. */
async function asked(prompter: UiPrompter, req: PermissionPromptRequest, signal = new AbortController().signal) {
  const listed = new Promise<PendingPermission[]>((resolve) => {
    const d = prompter.onDidChange((list) => {
      d.dispose()
      resolve(list)
    })
  })
  const answer = prompter.prompt(req, signal)
  return { answer, list: await listed }
}

describe('UiPrompter', () => {
  it('shows each request with the asking agent’s own directory, the workspace root when unknown', async () => {
    const prompter = new UiPrompter(dir)
    const worktree = join(dir, 'wt')
    prompter.setAgentCwdResolver((id) => (id === 'alice@team' ? worktree : undefined))
    const a = await asked(prompter, request())
    expect(a.list[0]).toMatchObject({ requestId: 'r1', cwd: worktree, tool: 'Bash' })
    const b = await asked(prompter, request({ requestId: 'r2', agentId: 'team-lead', agentName: 'team-lead' }))
    expect(b.list.map((p) => [p.requestId, p.cwd])).toEqual([
      ['r1', worktree],
      ['r2', dir]
    ])
    prompter.cancelAll()
  })

  it('diffs an Edit against the file in the asking agent’s directory', async () => {
    const wt = mkdtempSync(join(dir, 'wt-'))
    writeFileSync(join(wt, 'a.txt'), 'one\ntwo\n')
    const prompter = new UiPrompter(dir)
    prompter.setAgentCwdResolver(() => wt)
    const { list } = await asked(
      prompter,
      request({ tool: 'Edit', input: { file_path: 'a.txt', old_string: 'two', new_string: 'three' }, suggestions: [] })
    )
    expect(list[0]!.diff).toContain('-two')
    expect(list[0]!.diff).toContain('+three')
    prompter.cancelAll()
  })

  it('adds only a rule the request offered; any other keeps the request pending', async () => {
    const prompter = new UiPrompter(dir)
    const { answer } = await asked(prompter, request())
    expect(() => prompter.respond('r1', { decision: 'allow', alwaysAllowRule: 'Bash' })).toThrow(UnofferedRuleError)
    expect(() => prompter.respond('r1', { decision: 'allow', alwaysAllowRule: 'Bash' })).toThrow(
      /may add only Bash\(npm test:\*\)/
    )
    expect(prompter.list().map((p) => p.requestId)).toEqual(['r1'])
    expect(prompter.respond('r1', { decision: 'allow', alwaysAllowRule: 'Bash(npm test:*)' })).toBe(true)
    await expect(answer).resolves.toEqual({ decision: 'allow', by: 'user', alwaysAllowRule: 'Bash(npm test:*)' })
    expect(prompter.respond('r1', { decision: 'deny' })).toBe(false)
  })

  it('refuses "Always allow" for a request that offers no rule (a plan approval, a process teammate’s question)', async () => {
    const prompter = new UiPrompter(dir)
    await asked(prompter, request({ tool: 'ExitPlanMode', input: { plan: '1. x' }, suggestions: [] }))
    expect(() => prompter.respond('r1', { decision: 'allow', alwaysAllowRule: 'ExitPlanMode' })).toThrow(
      /allow it once instead/
    )
    prompter.cancelAll()
  })

  it('removes the card of an agent that stopped and answers its gate with a cancellation', async () => {
    const prompter = new UiPrompter(dir)
    const controller = new AbortController()
    const { answer } = await asked(prompter, request(), controller.signal)
    const lists: string[][] = []
    prompter.onDidChange((list) => lists.push(list.map((p) => p.requestId)))
    controller.abort()
    await expect(answer).resolves.toMatchObject({ decision: 'deny', by: 'cancelled' })
    expect(lists).toEqual([[]])
    expect(prompter.respond('r1', { decision: 'allow' })).toBe(false)
  })

  it('sends a denial’s reason to the agent', async () => {
    const prompter = new UiPrompter(dir)
    const { answer } = await asked(prompter, request())
    expect(prompter.respond('r1', { decision: 'deny', reason: 'use the Makefile' })).toBe(true)
    await expect(answer).resolves.toEqual({ decision: 'deny', by: 'user', reason: 'use the Makefile' })
  })
})
