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
