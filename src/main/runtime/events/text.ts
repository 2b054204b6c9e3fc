import { AGENT_PALETTE, agentColor, teamColorHex } from '../../../shared/agentColors'
import { sandboxMarkText, type RuntimeEvent, type SandboxMark } from '../../../shared/events'
import { SANDBOX_NETWORK_TOOL } from '../../../shared/permissions'

/** ANSI styling; a no-op when colour is off. */
interface Style {
  dim(s: string): string
  bold(s: string): string
  red(s: string): string
  green(s: string): string
  yellow(s: string): string
  cyan(s: string): string
  magenta(s: string): string
}

function style(color: boolean): Style {
  const wrap = (open: number, close: number) => (s: string) => (color ? `\x1b[${open}m${s}\x1b[${close}m` : s)
  return {
    dim: wrap(2, 22),
    bold: wrap(1, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
    magenta: wrap(35, 39)
  }
}

/** `#rrggbb` as a 24-bit ANSI foreground colour around `text`. */
function hexColor(hex: string, text: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))
  return `\x1b[38;2;${r};${g};${b}m${text}\x1b[39m`
}

/**
 * A Bash command's sandbox mark as it reads beside its result (docs/sandbox.md#the-pane-mark):
 * `[sandboxed]` in green, `[outside the sandbox: <why>]` in yellow.
 */
export function sandboxTag(mark: SandboxMark, s: Pick<Style, 'green' | 'yellow'> = style(true)): string {
  const text = `[${sandboxMarkText(mark)}]`
  return mark === 'sandboxed' ? s.green(text) : s.yellow(text)
}

/** Lines of a tool's output shown in the human stream before eliding the rest. */
const PREVIEW_LINES = 8

/** One-line summary of a tool input: its most telling field, or compact JSON. */
export function summarizeInput(name: string, input: unknown): string {
  const o = (input ?? {}) as Record<string, unknown>
  if (name === 'TodoWrite' && Array.isArray(o.todos)) {
    // the list itself follows as its todos_updated lines
    const done = o.todos.filter((t) => (t as { status?: unknown } | null)?.status === 'completed').length
    return `${o.todos.length} todo${o.todos.length === 1 ? '' : 's'}, ${done} done`
  }
  const pick = (k: string): string | undefined => (typeof o[k] === 'string' ? (o[k] as string) : undefined)
  const main =
    name === 'Bash'
      ? pick('command')
      : (pick('file_path') ?? pick('pattern') ?? pick('bash_id') ?? pick('shell_id') ?? pick('description'))
  const text = main ?? JSON.stringify(input)
  const oneLine = text.replace(/\s*\n\s*/g, ' ⏎ ')
  return oneLine.length > 160 ? oneLine.slice(0, 157) + '…' : oneLine
}

/**
 * The lines of a result worth showing: the head of most tools' output, but the tail of a
 * command's (where test runners and compilers put their verdict).
 */
function preview(output: string, fromEnd: boolean): string[] {
  const lines = output.replace(/\n+$/, '').split('\n')
  if (lines.length <= PREVIEW_LINES) return lines
  const hidden = lines.length - PREVIEW_LINES
  return fromEnd
    ? [`… ${hidden} earlier lines`, ...lines.slice(-PREVIEW_LINES)]
    : [...lines.slice(0, PREVIEW_LINES), `… ${hidden} more lines`]
}

/**
 * Renders the event stream for a person reading a terminal (the CLI without `--json`): what each
 * agent says, each tool call and a preview of its result, each permission question and answer,
 * messages between agents, and the run's end with usage and cost, in the order the events come.
 * Names are drawn in each agent's colour (the team colour of its config, docs/teams.md#spawning-a-teammate; the palette's
 * first for the leader), and every line an agent's event writes starts with its name, so
 * interleaved teammates stay apart. Returns the text for one event ('' for none).
 */
export function createHumanRenderer(options: { color: boolean; scripted: boolean }): (event: RuntimeEvent) => string {
  const s = style(options.color)
  const tools = new Map<string, string>()
  const parallel = new Set<string>()
  const colors = new Map<string, string>()
  /** The tool of each open permission question, so its answer reads right. */
  const asked = new Map<string, string>()
  let nameWidth = 0
  const paint = (e: RuntimeEvent, text: string): string =>
    options.color ? s.bold(hexColor(colors.get(e.agentId) ?? agentColor(e.agentId), text)) : text
  const who = (e: RuntimeEvent): string => paint(e, e.agentName)
  // the name column: as wide as the longest name seen so far
  const tag = (e: RuntimeEvent): string => `${paint(e, e.agentName.padEnd(nameWidth))} `
  const indent = (): string => ''.padEnd(nameWidth + 1)
  const render = (e: RuntimeEvent): string => {
    switch (e.type) {
      case 'agent_started':
        return e.depth === 0
          ? `${s.dim('▶')} ${who(e)} ${s.dim(`started in ${e.cwd ?? '?'} with ${e.model ?? 'default model'}${options.scripted ? ' (scripted model)' : ''}`)}\n`
          : `${s.dim('▶')} ${who(e)} ${s.dim(`(${e.agentType}) started`)}\n`
      case 'assistant_text':
        return `${tag(e)}${e.text.replace(/\n/g, `\n${indent()}`)}\n`
      case 'user_prompt':
        // the person's words, set apart as Claude Code sets a prompt apart: `> ` and bold, under no agent's name
        return `${s.bold('>')} ${s.bold(e.text.trim().replace(/\n/g, '\n  '))}\n`
      case 'tool_call':
        if (tools.size > 0) for (const id of [e.toolUseId, ...tools.keys()]) parallel.add(id)
        tools.set(e.toolUseId, e.name)
        return `${tag(e)}  ${s.magenta('●')} ${s.bold(e.name)}(${summarizeInput(e.name, e.input)})\n`
      case 'tool_result': {
        const name = tools.get(e.toolUseId) ?? 'tool'
        // Parallel calls finish in any order: name each call that ran beside others.
        const label = parallel.delete(e.toolUseId) ? `${name}: ` : ''
        tools.delete(e.toolUseId)
        const mark = e.isError ? s.red('✗') : s.green('└')
        const lines = preview(e.output || '(no output)', name === 'Bash')
        const sandbox = e.sandbox ? `${sandboxTag(e.sandbox, s)} ` : ''
        return (
          lines
            .map(
              (l, i) =>
                `${i === 0 ? tag(e) : indent()}    ${i === 0 ? `${mark} ${sandbox}${s.dim(label)}` : '  '}${e.isError ? s.red(l) : s.dim(l)}`
            )
            .join('\n') + '\n'
        )
      }
      case 'todos_updated':
        // the agent's new list as a checklist (docs/tools.md#todowrite): what it does now stands out
        return e.todos
          .map(
            (t, i) =>
              `${i === 0 ? tag(e) : indent()}    ${
                t.status === 'completed'
                  ? s.dim(`☑ ${t.content}`)
                  : t.status === 'in_progress'
                    ? s.cyan(`▶ ${t.activeForm}`)
                    : `☐ ${t.content}`
              }`
          )
          .map((l) => `${l}\n`)
          .join('')
      case 'message_sent':
        return `${tag(e)}  ${s.dim(`✉ ${e.from} → ${e.to}${e.kind === 'plain' ? '' : ` (${e.kind})`}`)}\n`
      case 'permission_request':
        asked.set(e.requestId, e.tool)
        return `${tag(e)}  ${s.yellow('?')} ${s.yellow(`Permission needed: ${e.tool}(${summarizeInput(e.tool, e.input)})`)}${e.reason ? s.dim(` — ${e.reason}`) : ''}\n`
      case 'permission_decided': {
        const tool = asked.get(e.requestId)
        asked.delete(e.requestId)
        return `${tag(e)}  ${decisionLine(e, s, tool)}\n`
      }
      case 'notice':
        return `${e.level === 'error' ? s.red('!') : s.yellow('!')} ${e.message}\n`
      case 'scenario_error':
        return `${s.red('scenario error:')} ${e.message}\n`
      case 'agent_stopped':
        return e.status === 'completed'
          ? ''
          : `${who(e)} ${s.red(`stopped: ${e.status}${e.reason ? ` — ${e.reason}` : ''}`)}\n`
      case 'run_finished': {
        const u = e.usage
        const head =
          e.status === 'ok' ? s.green('✔ Run finished') : s.red(`✘ Run failed${e.reason ? `: ${e.reason}` : ''}`)
        const tokens = `${u.inputTokens} in, ${u.outputTokens} out, ${u.cacheReadInputTokens} cache read, ${u.cacheCreationInputTokens} cache write`
        const cost = `$${e.costUsd.toFixed(4)}${options.scripted ? ' (scripted model: priced as the named model)' : ''}`
        return `${head} ${s.dim(`in ${(e.durationMs / 1000).toFixed(1)} s · ${tokens} · ${cost}${e.sessionId ? ` · session ${e.sessionId}` : ''}`)}\n`
      }
      default:
        return ''
    }
  }
  return (e) => {
    if (e.type === 'agent_started' && !colors.has(e.agentId)) {
      colors.set(e.agentId, e.depth === 0 ? AGENT_PALETTE[0] : teamColorHex(e.color, e.agentId))
      nameWidth = Math.max(nameWidth, e.agentName.length)
    }
    return render(e)
  }
}

/**
 * A permission decision in words: `✓ allowed by user`, `✓ always allowed by user — rule
 * Bash(npm test:*) added for this session`, `✗ denied by user: reason`, and for a question that
 * was withdrawn because its agent stopped (or the workspace closed), `✗ cancelled — the agent
 * stopped`: nobody denied it.
 */
function decisionLine(e: Extract<RuntimeEvent, { type: 'permission_decided' }>, s: Style, tool?: string): string {
  if (e.by === 'cancelled') return s.yellow(`✗ cancelled — ${e.reason ?? 'the agent stopped'}`)
  // a sandbox network question's "always" is kept in the local settings (docs/sandbox.md#the-answers)
  if (e.decision === 'allow' && e.rule && tool === SANDBOX_NETWORK_TOOL)
    return `${s.green('✓ always allowed')} ${s.dim(`by ${e.by} — ${e.rule} added to sandbox.network.allowedDomains`)}`
  if (e.decision === 'allow' && e.rule)
    return `${s.green('✓ always allowed')} ${s.dim(`by ${e.by} — rule ${e.rule} added for this session`)}`
  return `${e.decision === 'allow' ? s.green('✓ allowed') : s.red('✗ denied')} ${s.dim(`by ${e.by}${e.reason ? `: ${e.reason}` : ''}`)}`
}
