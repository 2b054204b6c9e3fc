import type { AgentState, RuntimeEvent } from '../../shared/events'
import { createHumanRenderer, sandboxTag } from '../runtime/events'
import { readableToolResult, type CallInfo, type LaunchedAgent } from './paneTextResults'

/** An ANSI SGR sequence (colour, bold, dim): what `color: false` removes from the lines this renderer writes. */
const ANSI_SGR = /\x1b\[[0-9;]*m/g

/** ANSI colour per notification status: a kill or failure must not read like a success. */
const NOTIFICATION_COLOR = { completed: '\x1b[32m', failed: '\x1b[31m', killed: '\x1b[33m' } as const

/**
 * The line a teammate's pane gets when it enters a state, for the states nothing else in the
 * stream shows. Not `awaiting_permission` (its `permission_request` line says more), not `crashed`
 * (its `agent_stopped` line carries the reason), not `running`/`starting`/`stopping` (what it does
 * next shows that).
 */
const TEAMMATE_STATE_LINES: Partial<Record<AgentState, string>> = {
  idle: '\x1b[2m◦ idle — waiting for a message or a task\x1b[22m\r\n',
  awaiting_plan_approval: '\x1b[33m◇ waiting for the team lead to approve the plan\x1b[39m\r\n'
}

/**
 * Turns the event stream into what each agent's pane shows (docs/ui.md#the-workspace-ui): the readable coloured
 * stream of the CLI, with a command's raw PTY output (ANSI intact) in place of its result
 * preview, results written for a model (an Agent launch's JSON, BashOutput's tags) as readable
 * lines (paneTextResults.ts), and a line in the receiving agent's pane for each task notification
 * (docs/agents.md#task-notifications: the CLI stream leaves them out; in the app they are how a parent learns that a child
 * ended).
 *
 * Teammates (agents whose `agent_started` names a `backend`, docs/teams.md#spawning-a-teammate):
 * - a `process` teammate's pane IS its terminal: it gets exactly the bytes of its
 *   `terminal_output` events and nothing rendered from its other events, which that terminal
 *   already prints — but for a line when it is killed or crashes, which it cannot print. An agent that sends `terminal_output` without a seen start is treated alike
 *   from then on.
 * - a `worker` teammate's pane renders its events like any agent's, plus a line when it goes idle
 *   or waits for plan approval (see {@link TEAMMATE_STATE_LINES}), once per change; its normal
 *   end (`exited`) reads as a dim line rather than the CLI's red `stopped: exited`.
 *
 * Returns `[agentId, text]` to write, or undefined. Text uses CRLF, as a terminal needs; terminal
 * output is passed through untouched. `color: false` (default true) leaves out the ANSI styling of
 * the lines it writes (a `process` teammate prints with this on a terminal that asks for no colour,
 * NO_COLOR); a command's own output keeps whatever it printed.
 */
export function createPaneRenderer(options: {
  scripted: boolean
  color?: boolean
}): (event: RuntimeEvent) => [string, string] | undefined {
  const color = options.color ?? true
  const paint = (text: string): string => (color ? text : text.replace(ANSI_SGR, ''))
  const human = createHumanRenderer({ color, scripted: options.scripted })
  const streamed = new Set<string>()
  /** Agents by id, so a notification or a launch names the agent it is about (its task id is the agent id). */
  const agents = new Map<string, LaunchedAgent>()
  /** Calls awaiting their result, so a result is read knowing which tool wrote it. */
  const calls = new Map<string, CallInfo>()
  /** Teammates' backends by agent id, from their `agent_started`. */
  const backends = new Map<string, 'worker' | 'process'>()
  /** Agents whose pane is a real terminal: fed only by `terminal_output`. */
  const terminals = new Set<string>()
  /** A teammate's last state, so a repeated state adds no second line. */
  const states = new Map<string, AgentState>()
  return (event) => {
    if (event.type === 'agent_started') {
      agents.set(event.agentId, { name: event.agentName, type: event.agentType })
      states.delete(event.agentId)
      if (event.backend) backends.set(event.agentId, event.backend)
      if (event.backend === 'process') terminals.add(event.agentId)
      else terminals.delete(event.agentId)
    }
    if (event.type === 'terminal_output') {
      terminals.add(event.agentId)
      return [event.agentId, event.data]
    }
    if (terminals.has(event.agentId)) return event.type === 'agent_stopped' ? terminalEndLine(event) : undefined
    if (backends.has(event.agentId)) {
      const line = teammateLine(event, states)
      if (line !== undefined) return line ? [event.agentId, paint(line)] : undefined
    }
    if (event.type === 'task_notification') {
      const name = agents.get(event.taskId)?.name ?? event.taskId
      return [
        event.agentId,
        paint(`${NOTIFICATION_COLOR[event.status]}◆ notification: agent ${name} ${event.status}\x1b[39m\r\n`)
      ]
    }
    if (event.type === 'tool_output') {
      streamed.add(event.toolUseId)
      return [event.agentId, event.data]
    }
    if (event.type === 'tool_call') calls.set(event.toolUseId, { name: event.name, input: event.input })
    const call = event.type === 'tool_result' ? calls.get(event.toolUseId) : undefined
    if (event.type === 'tool_result') calls.delete(event.toolUseId)
    if (event.type === 'tool_result' && streamed.delete(event.toolUseId)) {
      // The pane already shows the command's own output; keep only the verdict line.
      human(event)
      const verdict = event.isError ? `\x1b[31m✗ ${lastLine(event.output)}\x1b[39m` : '\x1b[32m└ done\x1b[39m'
      // how the command ran with respect to the sandbox (docs/sandbox.md#the-pane-mark)
      const sandbox = event.sandbox ? ` ${sandboxTag(event.sandbox)}` : ''
      return [event.agentId, paint(`\r\n    ${verdict}${sandbox}\r\n`)]
    }
    // The CLI renderer sees every event, even one shown differently: it pairs calls with results.
    const text = human(event)
    const readable = event.type === 'tool_result' ? readableToolResult(event, call, agents) : undefined
    if (readable !== undefined) return [event.agentId, paint(readable)]
    return text ? [event.agentId, text.replace(/\r?\n/g, '\r\n')] : undefined
  }
}

/**
 * What a (worker) teammate's pane shows for the events it renders differently from other agents:
 * the text to write, '' for nothing, or undefined to render the event the common way.
 */
function teammateLine(event: RuntimeEvent, states: Map<string, AgentState>): string | undefined {
  if (event.type === 'agent_state') {
    const before = states.get(event.agentId)
    states.set(event.agentId, event.state)
    return before === event.state ? '' : (TEAMMATE_STATE_LINES[event.state] ?? '')
  }
  if (event.type === 'agent_stopped' && event.status === 'exited') {
    return `\x1b[2m■ ${event.agentName} exited${event.reason ? ` — ${event.reason}` : ''}\x1b[22m\r\n`
  }
  return undefined
}

/**
 * What a terminal pane (a process teammate's) gets when its agent was killed or crashed: its own
 * program can no longer say so, as a worker teammate's stream does. CAN ends an escape sequence
 * the kill cut, and the colours are reset so the line reads plainly. A normal exit adds nothing:
 * the program printed its own end.
 */
function terminalEndLine(event: Extract<RuntimeEvent, { type: 'agent_stopped' }>): [string, string] | undefined {
  if (event.status !== 'killed' && event.status !== 'crashed') return undefined
  return [
    event.agentId,
    `\x18\x1b[0m\r\n\x1b[31m■ ${event.agentName} ${event.status}${event.reason ? ` — ${event.reason}` : ''}\x1b[39m\r\n`
  ]
}

function lastLine(output: string): string {
  const lines = output.trimEnd().split('\n')
  return lines[lines.length - 1] ?? ''
}
