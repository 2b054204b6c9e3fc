/** Agent colours: the one rule shared with the runtime's snapshot (teammates: their team colour). */
export { AGENT_PALETTE, agentColor, TEAM_COLOR_HEX, teamColorHex } from '../../../shared/agentColors'
