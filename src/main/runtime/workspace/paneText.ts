import type { RuntimeEvent } from '../../../shared/events'
import { createHumanRenderer } from '../events/text'

/** ANSI colour per notification status: a kill or failure must not read like a success. */
const NOTIFICATION_COLOR = { completed: '\x1b[32m', failed: '\x1b[31m', killed: '\x1b[33m' } as const

/**
 * Turns the event stream into what each agent's pane shows (SPEC §11): the readable coloured
 * stream of the CLI, with a command's raw PTY output (ANSI intact) in place of its result
 * preview, and a line in the receiving agent's pane for each task notification (SPEC §6.5: the
 * CLI stream leaves them out; in the app they are how a parent learns that a child ended).
 * Returns `[agentId, text]` to write, or undefined. Text uses CRLF, as a terminal needs.
 */
export function createPaneRenderer(options: { scripted: boolean }): (event: RuntimeEvent) => [string, string] | undefined {
  const human = createHumanRenderer({ color: true, scripted: options.scripted })
  const streamed = new Set<string>()
  /** Agent names by id, so a notification names the agent it is about (its task id is the agent id). */
  const names = new Map<string, string>()
  return (event) => {
    if (event.type === 'agent_started') names.set(event.agentId, event.agentName)
    if (event.type === 'task_notification') {
      const name = names.get(event.taskId) ?? event.taskId
      return [event.agentId, `${NOTIFICATION_COLOR[event.status]}◆ notification: agent ${name} ${event.status}\x1b[39m\r\n`]
    }
    if (event.type === 'tool_output') {
      streamed.add(event.toolUseId)
      return [event.agentId, event.data]
    }
    if (event.type === 'tool_result' && streamed.delete(event.toolUseId)) {
      // The pane already shows the command's own output; keep only the verdict line.
      human(event)
      const verdict = event.isError ? `\x1b[31m✗ ${lastLine(event.output)}\x1b[39m` : '\x1b[32m└ done\x1b[39m'
      return [event.agentId, `\r\n    ${verdict}\r\n`]
    }
    const text = human(event)
    return text ? [event.agentId, text.replace(/\r?\n/g, '\r\n')] : undefined
  }
}

function lastLine(output: string): string {
  const lines = output.trimEnd().split('\n')
  return lines[lines.length - 1] ?? ''
}
