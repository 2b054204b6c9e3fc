/** Agent colours: the one rule shared with the runtime's snapshot. */
export { AGENT_PALETTE, agentColor } from '../../../shared/agentColors'
