import { TEAM_COLORS } from './teams'

/**
 * Agent colours, one rule for the runtime's snapshot and the UI (which learns of agents from
 * events that carry no colour). The palette follows Claude Code's teammate colours, tuned for a
 * dark background.
 */
export const AGENT_PALETTE = [
  '#d97757', // leader orange
  '#5fa8ff',
  '#7ad67a',
  '#e5c07b',
  '#c678dd',
  '#56d4dd',
  '#ff7b9c',
  '#a3a3ff'
] as const

/** A stable colour for an agent, from its id (the leader always gets the first). */
export function agentColor(agentId: string): string {
  if (agentId === 'team-lead') return AGENT_PALETTE[0]
  let h = 0
  for (let i = 0; i < agentId.length; i++) h = (h * 31 + agentId.charCodeAt(i)) >>> 0
  return AGENT_PALETTE[1 + (h % (AGENT_PALETTE.length - 1))]
}

/** One of the team colour names the team config hands out (`blue`, `green`…, docs/teams.md#spawning-a-teammate). */
export type TeamColorName = (typeof TEAM_COLORS)[number]

/**
 * The hex each team colour name is drawn in. Six reuse {@link AGENT_PALETTE} entries so a teammate
 * looks like the subagents the UI already colours; the palette has no red and only the leader's
 * orange, so `orange` gets a brighter amber-orange (a teammate must not pass for the leader) and
 * `red` a warm red a shade off the UI's danger colour.
 */
export const TEAM_COLOR_HEX: Readonly<Record<TeamColorName, string>> = Object.freeze({
  blue: AGENT_PALETTE[1],
  green: AGENT_PALETTE[2],
  yellow: AGENT_PALETTE[3],
  purple: AGENT_PALETTE[4],
  orange: '#ffa657',
  pink: AGENT_PALETTE[6],
  cyan: AGENT_PALETTE[5],
  red: '#f25f5c'
})

const HEX = /^#[0-9a-f]{6}$/i

/**
 * The hex (`#rrggbb`) to draw a teammate in, from the colour name in its `agent_started` event or
 * team config (`blue`, `Green ` — case and surrounding space ignored). A value that is already a
 * `#rrggbb` hex is kept as it is. Anything else — no colour, a name outside
 * {@link TEAM_COLORS} — falls back to {@link agentColor} of `agentId`, so every agent still gets a
 * stable colour.
 */
export function teamColorHex(color: string | undefined, agentId: string): string {
  const name = color?.trim().toLowerCase()
  if (name && Object.hasOwn(TEAM_COLOR_HEX, name)) return TEAM_COLOR_HEX[name as TeamColorName]
  if (name && HEX.test(name)) return name
  return agentColor(agentId)
}
