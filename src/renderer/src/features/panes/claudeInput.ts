import { connectedApi } from '../../store/commands'

/**
 * Sends keys typed in a Claude Code session's pane to its program (`pane.input`,
 * docs/claude-code.md#sessions-in-panes). A paste longer than one request takes is sent in
 * pieces, in order. A refusal (the session ended meanwhile) is logged, not shown: the pane says
 * that it ended.
 */
export async function sendPaneInput(agentId: string, data: string): Promise<void> {
  const api = connectedApi()
  try {
    for (let i = 0; i < data.length; i += PIECE) {
      await api.request('pane.input', { agentId, data: data.slice(i, i + PIECE) })
    }
  } catch (err) {
    console.warn(`keys for ${agentId} not delivered`, err)
  }
}

const PIECE = 32 * 1024
