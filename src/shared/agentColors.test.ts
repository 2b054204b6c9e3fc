import { describe, expect, it } from 'vitest'
import { AGENT_PALETTE, agentColor, TEAM_COLOR_HEX, teamColorHex } from './agentColors'
import { TEAM_COLORS } from './teams'

describe('team colours', () => {
  it('gives every team colour name its own hex', () => {
    const hexes = TEAM_COLORS.map((name) => teamColorHex(name, `x@team`))
    for (const hex of hexes) expect(hex).toMatch(/^#[0-9a-f]{6}$/)
    expect(new Set(hexes).size).toBe(TEAM_COLORS.length)
    expect(Object.keys(TEAM_COLOR_HEX).sort()).toEqual([...TEAM_COLORS].sort())
  })

  it('draws the names the palette has in the palette colour, and never a teammate in the leader orange', () => {
    expect(teamColorHex('blue', 'alice@t')).toBe(AGENT_PALETTE[1])
    expect(teamColorHex('cyan', 'alice@t')).toBe(AGENT_PALETTE[5])
    expect(TEAM_COLORS.map((c) => teamColorHex(c, 'alice@t'))).not.toContain(agentColor('team-lead'))
  })

  it('ignores case and surrounding space in a name', () => {
    expect(teamColorHex(' Green ', 'bob@t')).toBe(TEAM_COLOR_HEX.green)
  })

  it('keeps a colour that is already a hex', () => {
    expect(teamColorHex('#12ab3C', 'bob@t')).toBe('#12ab3c')
  })

  it('falls back to the agent id colour for no colour or an unknown name', () => {
    expect(teamColorHex(undefined, 'bob@t')).toBe(agentColor('bob@t'))
    expect(teamColorHex('', 'bob@t')).toBe(agentColor('bob@t'))
    expect(teamColorHex('mauve', 'bob@t')).toBe(agentColor('bob@t'))
    expect(teamColorHex('toString', 'bob@t')).toBe(agentColor('bob@t'))
  })
})
