import { describe, expect, it } from 'vitest'
import { TerminalEventThinner } from './eventThinner'

describe('TerminalEventThinner', () => {
  it("passes an agent's first terminal-output event and then one a second, each without its bytes; other events untouched", () => {
    let now = 0
    const thinner = new TerminalEventThinner(1_000, () => now)
    const output = (agentId: string, seq: number, type = 'tool_output') => ({
      type,
      seq,
      agentId,
      agentName: agentId,
      toolUseId: 't',
      data: `line ${seq}\n`
    })
    const passed = []
    for (let seq = 1; seq <= 50; seq++) {
      now = seq * 50 // 20 a second for 2.5 s
      passed.push(thinner.thin(output('a', seq)))
    }
    expect(passed.filter(Boolean)).toEqual([
      { ...output('a', 1), data: '' },
      { ...output('a', 21), data: '' },
      { ...output('a', 41), data: '' }
    ])
    // per agent, and a process teammate's terminal alike
    expect(thinner.thin(output('b', 51, 'terminal_output'))).toEqual({
      ...output('b', 51, 'terminal_output'),
      data: ''
    })
    expect(thinner.thin(output('b', 52, 'terminal_output'))).toBeUndefined()
    const text = { type: 'assistant_text', seq: 53, agentId: 'a', text: 'done' }
    expect(thinner.thin(text)).toBe(text)
  })
})
