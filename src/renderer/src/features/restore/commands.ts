import { connectedApi } from '../../store/commands'

export { errorText } from '../../lib/errorText'

/**
 * What a person asks of a restored workspace (restore after restart): each calls one request
 * channel of src/shared/ipc/ and throws the runtime's refusal, for the button to show.
 */
export const restoreCommands = {
  /** Continues an `interrupted` agent from its transcript (`agent.resume`). */
  async resume(agentId: string): Promise<void> {
    await connectedApi().request('agent.resume', { agentId })
  },
  /**
   * Ends this session and opens a new, empty one (`workspace.newSession`), then reloads the page:
   * every pane, the board and the mailbox belong to the old session, and a reload draws the new
   * one from its snapshot.
   */
  async newSession(): Promise<void> {
    await connectedApi().request('workspace.newSession', {})
    window.location.reload()
  },
  /**
   * Ends this session and reopens `sessionId`, an earlier one of this workspace
   * (`workspace.openSession`), then reloads the page, which draws the reopened session from its
   * snapshot and its panes' scrollback.
   */
  async openSession(sessionId: string): Promise<void> {
    await connectedApi().request('workspace.openSession', { sessionId })
    window.location.reload()
  }
}
