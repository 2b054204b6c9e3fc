import { describe, expect, it } from 'vitest'
import { TEAM_COLOR_HEX, AGENT_PALETTE } from '../../../shared/agentColors'
import { parseRuntimeEvent, type RuntimeEvent } from '../../../shared/events'
import { createHumanRenderer } from './text'

/** A team run's events in the order a run emits them, each checked against the shared schema. */
function teamEvents(): RuntimeEvent[] {
  let seq = 0
  const at = (agentId: string, agentName: string, rest: Record<string, unknown>): RuntimeEvent =>
    parseRuntimeEvent({
      seq: ++seq,
      time: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
      agentId,
      agentName,
      ...rest
    })!
  const lead = (rest: Record<string, unknown>) => at('main', 'team-lead', rest)
  const alice = (rest: Record<string, unknown>) => at('alice@docs', 'alice', rest)
  const carol = (rest: Record<string, unknown>) => at('carol@docs', 'carol', rest)
  return [
    lead({ type: 'agent_started', agentType: 'main', depth: 0, cwd: '/w', model: 'claude-sonnet-4-5' }),
    lead({ type: 'assistant_text', text: 'Starting a team.' }),
    alice({
      type: 'agent_started',
      agentType: 'general-purpose',
      depth: 1,
      parentId: 'team-lead',
      backend: 'worker',
      color: 'blue'
    }),
    carol({
      type: 'agent_started',
      agentType: 'general-purpose',
      depth: 1,
      parentId: 'team-lead',
      backend: 'process',
      color: 'green'
    }),
    alice({ type: 'tool_call', toolUseId: 't1', name: 'Read', input: { file_path: 'README.md' } }),
    carol({ type: 'tool_call', toolUseId: 't2', name: 'Bash', input: { command: 'npm test' } }),
    carol({ type: 'tool_result', toolUseId: 't2', isError: false, output: 'ok 1\nok 2' }),
    alice({ type: 'tool_result', toolUseId: 't1', isError: false, output: '# Project' }),
    carol({
      type: 'permission_request',
      requestId: 'p1',
      tool: 'Write',
      input: { file_path: 'docs/a.md', content: 'x' }
    }),
    carol({ type: 'permission_decided', requestId: 'p1', decision: 'allow', by: 'approve-flag' }),
    alice({ type: 'message_sent', from: 'alice', to: 'team-lead', kind: 'plain' }),
    alice({ type: 'assistant_text', text: 'Done with\nthe README.' }),
    lead({ type: 'assistant_text', text: 'All done.' })
  ]
}

const ESC = '\x1b['

describe('the human event stream of a team run', () => {
  it('starts every line of an agent with its name, in the order things happened, and has no colour codes without colour', () => {
    const render = createHumanRenderer({ color: false, scripted: true })
    const text = teamEvents().map(render).join('')
    expect(text).not.toContain(ESC)
    const lines = text.trimEnd().split('\n')
    const owned = lines.filter((l) => !l.startsWith('▶') && !/^ {10,}/.test(l))
    expect(owned.map((l) => l.split(' ')[0])).toEqual([
      'team-lead',
      'alice',
      'carol',
      'carol',
      'alice',
      'carol',
      'carol',
      'alice',
      'alice',
      'team-lead'
    ])
    expect(lines).toContain('alice       ● Read(README.md)')
    expect(lines).toContain('carol       ● Bash(npm test)')
    expect(lines).toContain('carol         └ Bash: ok 1')
    expect(lines).toContain('                ok 2')
    expect(lines).toContain('alice       ✉ alice → team-lead')
    expect(lines).toContain('alice     Done with')
    expect(lines).toContain('          the README.')
  })

  it('draws each name in its team colour, the leader in the palette’s first', () => {
    const render = createHumanRenderer({ color: true, scripted: true })
    const text = teamEvents().map(render).join('')
    const rgb = (hex: string) => `${ESC}38;2;${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(';')}m`
    expect(text).toContain(`${rgb(TEAM_COLOR_HEX.blue)}alice`)
    expect(text).toContain(`${rgb(TEAM_COLOR_HEX.green)}carol`)
    expect(text).toContain(`${rgb(AGENT_PALETTE[0])}team-lead`)
    // carol's Bash line starts with carol's colour
    expect(text.split('\n').find((l) => l.includes('(npm test)'))).toMatch(
      new RegExp(`^${ESC.replace('[', '\\[')}1m${rgb(TEAM_COLOR_HEX.green).replace(/\[/g, '\\[')}carol`)
    )
  })

  it('names the agent on its lines in a run of one agent too', () => {
    const render = createHumanRenderer({ color: false, scripted: true })
    const [started, said] = teamEvents()
    expect(render(started!) + render(said!)).toBe(
      '▶ team-lead started in /w with claude-sonnet-4-5 (scripted model)\nteam-lead Starting a team.\n'
    )
    expect(
      render(
        parseRuntimeEvent({
          seq: 99,
          time: new Date().toISOString(),
          agentId: 'main',
          agentName: 'team-lead',
          type: 'tool_call',
          toolUseId: 'x',
          name: 'Glob',
          input: { pattern: '*' }
        })!
      )
    ).toBe('team-lead   ● Glob(*)\n')
  })
})

const decided = (fields: Partial<Extract<RuntimeEvent, { type: 'permission_decided' }>>): RuntimeEvent => ({
  seq: 1,
  time: '2026-01-01T00:00:00.000Z',
  agentId: 'wendy@crew',
  agentName: 'wendy',
  type: 'permission_decided',
  requestId: 'perm_1',
  decision: 'allow',
  by: 'user',
  ...fields
})

describe('permission decisions in a pane', () => {
  const render = createHumanRenderer({ color: false, scripted: true })

  it('names the rule an always-allow added', () => {
    expect(render(decided({ rule: 'Bash(expr:*)' }))).toBe(
      'wendy   ✓ always allowed by user — rule Bash(expr:*) added for this session\n'
    )
    expect(render(decided({}))).toBe('wendy   ✓ allowed by user\n')
  })

  it('says a withdrawn question was cancelled because its agent stopped, not that "cancelled" denied it', () => {
    expect(render(decided({ decision: 'deny', by: 'cancelled', reason: 'the agent stopped' }))).toBe(
      'wendy   ✗ cancelled — the agent stopped\n'
    )
    expect(render(decided({ decision: 'deny', by: 'cancelled' }))).toBe('wendy   ✗ cancelled — the agent stopped\n')
    expect(render(decided({ decision: 'deny', by: 'cancelled', reason: 'the workspace closed' }))).toBe(
      'wendy   ✗ cancelled — the workspace closed\n'
    )
    expect(render(decided({ decision: 'deny', by: 'user', reason: 'not here' }))).toBe(
      'wendy   ✗ denied by user: not here\n'
    )
  })
})
