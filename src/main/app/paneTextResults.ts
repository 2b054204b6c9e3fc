/**
 * Readable pane lines for the tool results whose text is written for a model, not a person
 * (docs/ui.md#the-workspace-ui: a pane shows the agent's stream "in ANSI"): the Agent tool's `async_launched` JSON
 * (docs/tools.md#tools, docs/agents.md#auto-background) and BashOutput's `<status>…<output>` tags. Every other result is already prose
 * and keeps the CLI's rendering.
 */

/** What a pane knows about an agent when its launch result arrives (from its `agent_started`). */
export interface LaunchedAgent {
  name: string
  type: string
}

/** The tool call a result answers, as the pane renderer remembered it from `tool_call`. */
export interface CallInfo {
  name: string
  input: unknown
}

/** Lines of a background shell's output shown before eliding the head (its verdict is at the end). */
const SHELL_PREVIEW_LINES = 8

const dim = (s: string): string => `\x1b[2m${s}\x1b[22m`
const green = (s: string): string => `\x1b[32m${s}\x1b[39m`
const red = (s: string): string => `\x1b[31m${s}\x1b[39m`
const yellow = (s: string): string => `\x1b[33m${s}\x1b[39m`

/** The `async_launched` result of docs/tools.md#tools: `{"status":"async_launched","agentId":…,"outputFile":…}`. */
function parseAsyncLaunched(output: string): { agentId: string; outputFile?: string } | undefined {
  if (!output.trimStart().startsWith('{')) return undefined
  try {
    const o = JSON.parse(output) as Record<string, unknown>
    if (o.status !== 'async_launched' || typeof o.agentId !== 'string') return undefined
    return { agentId: o.agentId, ...(typeof o.outputFile === 'string' ? { outputFile: o.outputFile } : {}) }
  } catch {
    return undefined
  }
}

/** BashOutput's result (tools/bashOutput.ts): status, an exit code once ended, then the new output. */
const SHELL_STATUS = /^<status>(\w+)<\/status>\n(?:<exit_code>(-?\d+)<\/exit_code>\n)?<output>\n([\s\S]*)\n<\/output>$/

function shellLines(call: CallInfo | undefined, output: string): string[] | undefined {
  const m = SHELL_STATUS.exec(output)
  if (!m) return undefined
  const [, status, exitCode, body] = m as unknown as [string, string, string | undefined, string]
  const input = (call?.input ?? {}) as Record<string, unknown>
  const id =
    typeof input.bash_id === 'string' ? input.bash_id : typeof input.shell_id === 'string' ? input.shell_id : undefined
  const paint =
    status === 'running' ? yellow : status === 'completed' && (exitCode === undefined || exitCode === '0') ? green : red
  const verdict = paint(`${status}${exitCode !== undefined ? ` (exit ${exitCode})` : ''}`)
  const head = `${green('└')} shell${id ? ` ${id}` : ''} ${verdict}`
  if (body === '(no new output)') return [`${head} ${dim('· no new output')}`]
  const lines = body.split('\n')
  const shown =
    lines.length > SHELL_PREVIEW_LINES
      ? [`… ${lines.length - SHELL_PREVIEW_LINES} earlier lines`, ...lines.slice(-SHELL_PREVIEW_LINES)]
      : lines
  return [head, ...shown.map((l) => `  ${dim(l)}`)]
}

/**
 * The pane text for a tool result written for a model, or undefined when the result is prose
 * (the caller then renders it the CLI's way). Lines are indented like the CLI's result lines and
 * end with CRLF.
 * @param call the call this result answers, when its `tool_call` was seen
 * @param agents what `agent_started` said about each agent, by id
 */
export function readableToolResult(
  event: { isError: boolean; output: string },
  call: CallInfo | undefined,
  agents: ReadonlyMap<string, LaunchedAgent>
): string | undefined {
  if (event.isError) return undefined
  let lines: string[] | undefined
  if (call === undefined || call.name === 'Agent') {
    const launched = parseAsyncLaunched(event.output)
    if (launched) {
      const known = agents.get(launched.agentId)
      const description = (call?.input as { description?: unknown } | undefined)?.description
      const name = known?.name ?? (typeof description === 'string' ? description : undefined)
      const what = known?.type === 'fork' ? 'fork' : 'background agent'
      // the path on a line of its own: it is long, and wraps less there in a narrow pane
      lines = [
        `${green('└')} \x1b[36m▸\x1b[39m launched ${what}${name ? ` \x1b[1m${name}\x1b[22m` : ''} ${dim(`(id ${launched.agentId})`)}`
      ]
      if (launched.outputFile) lines.push(`  ${dim(`transcript ${launched.outputFile}`)}`)
    }
  }
  if (!lines && (call === undefined || call.name === 'BashOutput')) lines = shellLines(call, event.output)
  return lines ? lines.map((l) => `    ${l}\r\n`).join('') : undefined
}
