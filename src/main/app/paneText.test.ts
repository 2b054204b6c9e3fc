import { describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../shared/events'
import { createPaneRenderer } from './paneText'

const base = { time: '2026-01-01T00:00:00.000Z' }
let seq = 0
const ev = (e: Record<string, unknown>) => ({ ...base, seq: ++seq, ...e }) as RuntimeEvent
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '')

describe('pane text', () => {
  it('shows a task notification in the receiving agent pane, naming the agent it is about', () => {
    const render = createPaneRenderer({ scripted: true })
    render(
      ev({
        type: 'agent_started',
        agentId: 'a-7',
        agentName: 'quick-job',
        agentType: 'general-purpose',
        parentId: 'team-lead',
        depth: 1
      })
    )
    const out = render(
      ev({ type: 'task_notification', agentId: 'team-lead', agentName: 'team-lead', taskId: 'a-7', status: 'killed' })
    )
    expect(out?.[0]).toBe('team-lead')
    expect(plain(out![1])).toBe('◆ notification: agent quick-job killed\r\n')
  })

  it('falls back to the task id for an agent whose start it did not see', () => {
    const render = createPaneRenderer({ scripted: true })
    const out = render(
      ev({
        type: 'task_notification',
        agentId: 'team-lead',
        agentName: 'team-lead',
        taskId: 'a-9',
        status: 'completed'
      })
    )
    expect(plain(out![1])).toContain('agent a-9 completed')
  })
})

describe('the sandbox mark of a command (docs/sandbox.md#the-pane-mark)', () => {
  const who = { agentId: 'team-lead', agentName: 'team-lead' }
  const command = (id: string, extra: Record<string, unknown>, streamed: boolean) => {
    const render = createPaneRenderer({ scripted: true })
    render(ev({ type: 'tool_call', toolUseId: id, name: 'Bash', input: { command: 'ls' }, ...who }))
    if (streamed) render(ev({ type: 'tool_output', toolUseId: id, data: 'a.txt\r\n', ...who }))
    return plain(render(ev({ type: 'tool_result', toolUseId: id, output: 'a.txt', ...extra, ...who }))![1])
  }

  it('follows the verdict of a command whose output the pane showed, and its result when it printed nothing', () => {
    expect(command('t1', { isError: false, sandbox: 'sandboxed' }, true)).toBe('\r\n    └ done [sandboxed]\r\n')
    expect(command('t2', { isError: true, output: 'Exit code 1', sandbox: 'excluded' }, true)).toBe(
      '\r\n    ✗ Exit code 1 [outside the sandbox: excludedCommands]\r\n'
    )
    expect(command('t3', { isError: false, sandbox: 'unsandboxed' }, false)).toContain(
      '└ [outside the sandbox: dangerouslyDisableSandbox] a.txt'
    )
    expect(command('t4', { isError: false, sandbox: 'unavailable' }, false)).toContain(
      '[outside the sandbox: it cannot start here]'
    )
  })

  it("reads a network question's always allow as kept in allowedDomains, a tool rule's as for the session", () => {
    const render = createPaneRenderer({ scripted: true })
    const ask = (requestId: string, tool: string, rule: string) => {
      render(ev({ type: 'permission_request', requestId, tool, input: {}, ...who }))
      const decided = { type: 'permission_decided', requestId, decision: 'allow', by: 'user', rule, ...who }
      return plain(render(ev(decided))![1])
    }
    expect(ask('r1', 'SandboxNetwork', 'example.com')).toContain(
      'always allowed by user — example.com added to sandbox.network.allowedDomains'
    )
    expect(ask('r2', 'Bash', 'Bash(ls:*)')).toContain('rule Bash(ls:*) added for this session')
  })

  it('is left out while the sandbox is off', () => {
    expect(command('t5', { isError: false }, true)).toBe('\r\n    └ done\r\n')
    expect(command('t6', { isError: false }, false)).not.toContain('sandbox')
  })
})

describe('pane text of teammates', () => {
  const started = (agentName: string, backend: 'worker' | 'process') =>
    ev({
      type: 'agent_started',
      agentId: `${agentName}@t`,
      agentName,
      agentType: 'general-purpose',
      parentId: 'team-lead',
      depth: 1,
      backend,
      color: 'blue'
    })

  it('writes a process teammate’s terminal output byte for byte and nothing rendered from its events but its crash', () => {
    const render = createPaneRenderer({ scripted: true })
    const out: Array<[string, string] | undefined> = []
    out.push(render(started('bob', 'process')))
    out.push(render(ev({ type: 'agent_state', agentId: 'bob@t', agentName: 'bob', state: 'running' })))
    out.push(
      render(ev({ type: 'terminal_output', agentId: 'bob@t', agentName: 'bob', data: '\x1b[1mbob\x1b[0m says hi\n\r' }))
    )
    out.push(render(ev({ type: 'assistant_text', agentId: 'bob@t', agentName: 'bob', text: 'says hi' })))
    out.push(
      render(
        ev({
          type: 'tool_call',
          agentId: 'bob@t',
          agentName: 'bob',
          toolUseId: 'u1',
          name: 'Bash',
          input: { command: 'ls' }
        })
      )
    )
    out.push(render(ev({ type: 'tool_output', agentId: 'bob@t', agentName: 'bob', toolUseId: 'u1', data: 'file\r\n' })))
    out.push(
      render(
        ev({ type: 'tool_result', agentId: 'bob@t', agentName: 'bob', toolUseId: 'u1', isError: false, output: 'file' })
      )
    )
    out.push(
      render(
        ev({
          type: 'permission_request',
          agentId: 'bob@t',
          agentName: 'bob',
          requestId: 'r',
          tool: 'Bash',
          input: { command: 'rm x' }
        })
      )
    )
    out.push(render(ev({ type: 'agent_state', agentId: 'bob@t', agentName: 'bob', state: 'idle' })))
    out.push(render(ev({ type: 'terminal_output', agentId: 'bob@t', agentName: 'bob', data: '\x1b[2K> ' })))
    out.push(
      render(
        ev({ type: 'agent_stopped', agentId: 'bob@t', agentName: 'bob', status: 'crashed', reason: 'exit code 1' })
      )
    )
    const written = out.filter((o): o is [string, string] => o !== undefined)
    expect(written.slice(0, 2)).toEqual([
      ['bob@t', '\x1b[1mbob\x1b[0m says hi\n\r'],
      ['bob@t', '\x1b[2K> ']
    ])
    // the dead program cannot say it crashed: the pane does, after ending any sequence it cut
    expect(written[2]![1].startsWith('\x18\x1b[0m')).toBe(true)
    expect(plain(written[2]![1].slice(1))).toBe('\r\n■ bob crashed — exit code 1\r\n')
    expect(written).toHaveLength(3)
  })

  it('says in a killed process teammate’s pane that it was killed, and adds nothing to its normal exit', () => {
    const render = createPaneRenderer({ scripted: true })
    render(started('bob', 'process'))
    render(ev({ type: 'terminal_output', agentId: 'bob@t', agentName: 'bob', data: 'working…' }))
    const killed = render(
      ev({
        type: 'agent_stopped',
        agentId: 'bob@t',
        agentName: 'bob',
        status: 'killed',
        reason: 'killed by a person from the workspace'
      })
    )
    expect(plain(killed![1].slice(1))).toBe('\r\n■ bob killed — killed by a person from the workspace\r\n')
    render(started('carol', 'process'))
    expect(
      render(ev({ type: 'agent_stopped', agentId: 'carol@t', agentName: 'carol', status: 'exited' }))
    ).toBeUndefined()
  })

  it('keeps rendering other agents’ events while a process teammate runs', () => {
    const render = createPaneRenderer({ scripted: true })
    render(started('bob', 'process'))
    const out = render(
      ev({ type: 'assistant_text', agentId: 'team-lead', agentName: 'team-lead', text: 'Spawned bob.' })
    )
    expect(plain(out![1])).toContain('Spawned bob.')
  })

  it('treats an agent that sends terminal output as a terminal even without a seen start', () => {
    const render = createPaneRenderer({ scripted: true })
    expect(render(ev({ type: 'terminal_output', agentId: 'carol@t', agentName: 'carol', data: 'x' }))).toEqual([
      'carol@t',
      'x'
    ])
    expect(render(ev({ type: 'assistant_text', agentId: 'carol@t', agentName: 'carol', text: 'x' }))).toBeUndefined()
  })

  it('renders a worker teammate’s events like any agent’s', () => {
    const render = createPaneRenderer({ scripted: true })
    render(started('alice', 'worker'))
    const text = render(
      ev({ type: 'assistant_text', agentId: 'alice@t', agentName: 'alice', text: 'Reading the code.' })
    )
    expect(text?.[0]).toBe('alice@t')
    expect(plain(text![1])).toBe('alice Reading the code.\r\n')
    const ask = render(
      ev({
        type: 'permission_request',
        agentId: 'alice@t',
        agentName: 'alice',
        requestId: 'r',
        tool: 'Bash',
        input: { command: 'npm test' }
      })
    )
    expect(plain(ask![1])).toContain('Permission needed: Bash(npm test)')
  })

  it('marks a worker teammate going idle and waiting for plan approval, once per change', () => {
    const render = createPaneRenderer({ scripted: true })
    render(started('alice', 'worker'))
    const state = (s: 'running' | 'idle' | 'awaiting_plan_approval' | 'awaiting_permission' | 'crashed') =>
      render(ev({ type: 'agent_state', agentId: 'alice@t', agentName: 'alice', state: s }))
    expect(state('running')).toBeUndefined()
    expect(plain(state('awaiting_plan_approval')![1])).toBe('◇ waiting for the team lead to approve the plan\r\n')
    expect(state('running')).toBeUndefined()
    expect(plain(state('idle')![1])).toBe('◦ idle — waiting for a message or a task\r\n')
    expect(state('idle')).toBeUndefined()
    // shown by their own events already: the permission question, the stop with its reason
    expect(state('awaiting_permission')).toBeUndefined()
    expect(state('crashed')).toBeUndefined()
    const stopped = render(
      ev({ type: 'agent_stopped', agentId: 'alice@t', agentName: 'alice', status: 'crashed', reason: 'heartbeat lost' })
    )
    expect(plain(stopped![1])).toContain('stopped: crashed — heartbeat lost')
  })

  it('shows a teammate’s normal exit as a quiet line, not as a failure', () => {
    const render = createPaneRenderer({ scripted: true })
    render(started('alice', 'worker'))
    const out = render(
      ev({
        type: 'agent_stopped',
        agentId: 'alice@t',
        agentName: 'alice',
        status: 'exited',
        reason: 'shutdown approved'
      })
    )
    expect(out![1]).not.toContain('\x1b[31m')
    expect(plain(out![1])).toBe('■ alice exited — shutdown approved\r\n')
  })

  it('adds no state lines for the leader or subagents', () => {
    const render = createPaneRenderer({ scripted: true })
    render(
      ev({
        type: 'agent_started',
        agentId: 'a1',
        agentName: 'Explore',
        agentType: 'Explore',
        parentId: 'team-lead',
        depth: 1
      })
    )
    expect(render(ev({ type: 'agent_state', agentId: 'a1', agentName: 'Explore', state: 'idle' }))).toBeUndefined()
    expect(
      render(ev({ type: 'agent_state', agentId: 'team-lead', agentName: 'team-lead', state: 'idle' }))
    ).toBeUndefined()
  })
})

describe('pane text of results written for a model', () => {
  const call = (toolUseId: string, name: string, input: Record<string, unknown>) =>
    ev({ type: 'tool_call', agentId: 'team-lead', agentName: 'team-lead', toolUseId, name, input })
  const result = (toolUseId: string, output: string, isError = false) =>
    ev({ type: 'tool_result', agentId: 'team-lead', agentName: 'team-lead', toolUseId, isError, output })
  const launched = (agentId: string) =>
    JSON.stringify({
      status: 'async_launched',
      agentId,
      outputFile: `/home/p/.swarmdesk/projects/w/s/agents/${agentId}.jsonl`
    })

  it('shows a background agent’s launch as a line naming it, its id and its transcript, not as JSON', () => {
    const render = createPaneRenderer({ scripted: true })
    render(call('u1', 'Agent', { description: 'researcher', prompt: 'Research.', run_in_background: true }))
    render(
      ev({
        type: 'agent_started',
        agentId: 'a1b2c3d4e5f60718',
        agentName: 'researcher',
        agentType: 'general-purpose',
        parentId: 'team-lead',
        depth: 1
      })
    )
    const out = render(result('u1', launched('a1b2c3d4e5f60718')))
    expect(out?.[0]).toBe('team-lead')
    expect(plain(out![1])).toBe(
      '    └ ▸ launched background agent researcher (id a1b2c3d4e5f60718)\r\n      transcript /home/p/.swarmdesk/projects/w/s/agents/a1b2c3d4e5f60718.jsonl\r\n'
    )
    expect(out![1]).not.toContain('async_launched')
  })

  it('calls a fork a fork, and names an agent whose start it missed by the call’s description', () => {
    const render = createPaneRenderer({ scripted: true })
    render(call('u1', 'Agent', { description: 'fork job', prompt: 'Do it.' }))
    render(
      ev({
        type: 'agent_started',
        agentId: 'af00000000000001',
        agentName: 'fork-job',
        agentType: 'fork',
        parentId: 'team-lead',
        depth: 1
      })
    )
    expect(plain(render(result('u1', launched('af00000000000001')))![1])).toContain(
      '▸ launched fork fork-job (id af00000000000001)'
    )
    render(call('u2', 'Agent', { description: 'late start', prompt: 'x', run_in_background: true }))
    expect(plain(render(result('u2', launched('a9')))![1])).toContain('▸ launched background agent late start (id a9)')
  })

  it('shows a BashOutput read as the shell’s state and its new output', () => {
    const render = createPaneRenderer({ scripted: true })
    render(call('u1', 'BashOutput', { bash_id: 'bash_1' }))
    expect(plain(render(result('u1', '<status>running</status>\n<output>\n(no new output)\n</output>'))![1])).toBe(
      '    └ shell bash_1 running · no new output\r\n'
    )
    render(call('u2', 'BashOutput', { bash_id: 'bash_1' }))
    const ended = plain(
      render(
        result('u2', '<status>failed</status>\n<exit_code>2</exit_code>\n<output>\ncompiling\nerror: x\n</output>')
      )![1]
    )
    expect(ended).toBe('    └ shell bash_1 failed (exit 2)\r\n      compiling\r\n      error: x\r\n')
    expect(ended).not.toMatch(/<\/?(status|output|exit_code)>/)
  })

  it('keeps the tail of a long BashOutput read, where the verdict is', () => {
    const render = createPaneRenderer({ scripted: true })
    render(call('u1', 'BashOutput', { bash_id: 'bash_2' }))
    const body = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n')
    const out = plain(
      render(result('u1', `<status>completed</status>\n<exit_code>0</exit_code>\n<output>\n${body}\n</output>`))![1]
    )
    expect(out).toContain('└ shell bash_2 completed (exit 0)')
    expect(out).toContain('… 12 earlier lines')
    expect(out).toContain('line 20')
    expect(out).not.toContain('line 12\r')
  })

  it('leaves prose results, errors and JSON that is no launch to the CLI’s rendering', () => {
    const render = createPaneRenderer({ scripted: true })
    render(call('u1', 'Read', { file_path: '/x/package.json' }))
    const json = plain(render(result('u1', '{"status":"async_launched","agentId":"a1"}'))![1])
    expect(json).toContain('└ {"status":"async_launched"')
    render(call('u2', 'Agent', { description: 'x', prompt: 'y' }))
    expect(plain(render(result('u2', 'Agent "x" failed.', true))![1])).toContain('✗ Agent "x" failed.')
    render(call('u3', 'TaskStop', { task_id: 'a1' }))
    expect(plain(render(result('u3', 'Stopped agent a1 ("x"): it and everything it owned have ended.'))![1])).toContain(
      '└ Stopped agent a1'
    )
  })
})
