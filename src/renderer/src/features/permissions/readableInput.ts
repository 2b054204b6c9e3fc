import type { PendingPermission } from '../../../../shared/ipc'
import { parseMcpToolName } from '../../../../shared/mcpNames'

/** One line of a unified diff, classified for colouring. */
export interface DiffLine {
  kind: 'add' | 'del' | 'hunk' | 'meta' | 'context'
  text: string
}

/** One line of a Markdown plan, classified for styling (the text itself is shown as written). */
export interface PlanLine {
  kind: 'heading' | 'bullet' | 'numbered' | 'code' | 'fence' | 'quote' | 'text'
  text: string
}

/**
 * A tool input as a person should read it (docs/ui.md#the-workspace-ui: command; diff for Edit/Write; path; the plan
 * of a plan approval, docs/teams.md#plan-approval).
 */
export type ReadableInput =
  | { kind: 'command'; command: string; description?: string; /** Where it runs (absolute). */ cwd?: string }
  | { kind: 'plan'; lines: PlanLine[] }
  | { kind: 'diff'; path?: string; lines: DiffLine[] }
  | { kind: 'path'; label: string; value: string; extra?: string }
  | { kind: 'spawn'; spawn: SpawnView }
  | {
      kind: 'fields'
      /** What the call does, in words ("sends a message to alice"). */ title: string
      rows: FieldRow[]
    }
  | { kind: 'json'; json: string }

/** An Agent (spawn) call in words: who is started, of which type, how, and with what prompt. */
export interface SpawnView {
  /** `a teammate named alice`, `a subagent`, `a fork of the leader`… */
  who: string
  /** The agent type (`general-purpose` when the call names none). */
  type: string
  /** `plan`, `acceptEdits`…; undefined = the parent's. */
  mode?: string | undefined
  /** `worker` or `process` (teammates), `in the background` for a background subagent. */
  backend?: string | undefined
  team?: string | undefined
  model?: string | undefined
  description?: string | undefined
  prompt: string
}

/** One labelled value of a {@link ReadableInput} `fields` view. */
export interface FieldRow {
  label: string
  value: string
  /** Long text (a message, a prompt): shown as a block. */
  block?: boolean
}

/** Compact JSON of a tool input (2-space indent, so nested objects stay readable). */
export function rawJson(input: unknown): string {
  try {
    return JSON.stringify(input, null, 2) ?? String(input)
  } catch {
    return String(input)
  }
}

/**
 * Classifies the lines of a unified diff. The `Index:` and `=====` header lines the `diff`
 * package writes say nothing the `---`/`+++` lines do not, so they are dropped.
 */
export function diffLines(diff: string): DiffLine[] {
  return diff
    .replace(/\n$/, '')
    .split('\n')
    .filter((text) => !text.startsWith('Index: ') && !/^=+$/.test(text))
    .map((text): DiffLine => {
      if (text.startsWith('+++') || text.startsWith('---') || text.startsWith('\\')) return { kind: 'meta', text }
      if (text.startsWith('@@')) return { kind: 'hunk', text }
      if (text.startsWith('+')) return { kind: 'add', text }
      if (text.startsWith('-')) return { kind: 'del', text }
      return { kind: 'context', text }
    })
}

/** The tool whose permission question is a plan approval request (docs/teams.md#plan-approval; Claude Code's name). */
export const PLAN_APPROVAL_TOOL = 'ExitPlanMode'

/** Whether a request asks to approve a plan rather than to use a tool: answered Approve / Reject. */
export function isPlanApproval(p: Pick<PendingPermission, 'tool'>): boolean {
  return p.tool === PLAN_APPROVAL_TOOL
}

/**
 * Classifies the lines of a Markdown plan so the card can show it readably without rendering any
 * HTML: headings, list items, block quotes, code fences and the lines inside them. The text is kept
 * verbatim (markers included), so what the person approves is exactly what the agent wrote.
 */
export function planLines(plan: string): PlanLine[] {
  let inCode = false
  return plan
    .replace(/\r\n/g, '\n')
    .replace(/\n+$/, '')
    .split('\n')
    .map((text): PlanLine => {
      if (/^\s*(```|~~~)/.test(text)) {
        inCode = !inCode
        return { kind: 'fence', text }
      }
      if (inCode) return { kind: 'code', text }
      if (/^#{1,6}\s/.test(text)) return { kind: 'heading', text }
      if (/^\s*[-*+]\s/.test(text)) return { kind: 'bullet', text }
      if (/^\s*\d+[.)]\s/.test(text)) return { kind: 'numbered', text }
      if (/^\s*>/.test(text)) return { kind: 'quote', text }
      return { kind: 'text', text }
    })
}

function str(o: Record<string, unknown>, key: string): string | undefined {
  const v = o[key]
  return typeof v === 'string' ? v : undefined
}

/**
 * Turns a permission request's input into what the card shows: SandboxNetwork → the host; Bash → the command and the
 * directory it runs in (the agent's `cwd`); Edit/Write → the diff main computed (or the new content
 * as added lines when there is none); Read → the path; Glob/Grep → the pattern and where it
 * searches (its `path`, else the agent's directory); ExitPlanMode → its plan, line by line;
 * Agent (Task) → who it starts, of which type, in which mode and backend, with its prompt;
 * SendMessage → to whom and the message; NotebookEdit → which cell of which notebook and the new source; WebFetch → the domain, the address and the prompt; WebSearch → the
 * query and its domain lists; an MCP tool (`mcp__server__tool`) → which tool of which server, with its
 * arguments as labelled values; the team and task tools and any other tool → what the
 * call does and its fields as labelled values; JSON only for an input that is not an object (the
 * card's Raw toggle shows the JSON of any).
 */
export function readableInput(p: Pick<PendingPermission, 'tool' | 'input' | 'diff' | 'cwd'>): ReadableInput {
  const o = typeof p.input === 'object' && p.input !== null ? (p.input as Record<string, unknown>) : {}
  const filePath = str(o, 'file_path') ?? str(o, 'path')
  switch (p.tool) {
    case 'Bash': {
      const command = str(o, 'command')
      if (command !== undefined)
        return { kind: 'command', command, description: str(o, 'description'), ...(p.cwd ? { cwd: p.cwd } : {}) }
      break
    }
    case 'Edit':
    case 'MultiEdit':
    case 'Write': {
      if (p.diff) return { kind: 'diff', path: filePath, lines: diffLines(p.diff) }
      const content = str(o, 'content') ?? str(o, 'new_string')
      if (content !== undefined) {
        return { kind: 'diff', path: filePath, lines: content.split('\n').map((t) => ({ kind: 'add', text: `+${t}` })) }
      }
      break
    }
    case PLAN_APPROVAL_TOOL: {
      const plan = str(o, 'plan')
      if (plan !== undefined) return { kind: 'plan', lines: planLines(plan) }
      break
    }
    case 'Read':
      if (filePath) return { kind: 'path', label: 'file', value: filePath }
      break
    // a sandboxed command's first connection to a domain (docs/sandbox.md#network)
    case 'SandboxNetwork': {
      const host = str(o, 'host')
      if (host) return { kind: 'path', label: 'network', value: host, extra: 'a sandboxed command asks to connect' }
      break
    }
    case 'Agent':
    case 'Task':
      return { kind: 'spawn', spawn: spawnView(o) }
    case 'SendMessage':
      return sendMessageView(o)
    case 'WebFetch': {
      const view = webFetchView(o)
      if (view) return view
      break
    }
    case 'NotebookEdit': {
      const view = notebookEditView(o)
      if (view) return view
      break
    }
    case 'WebSearch': {
      const query = str(o, 'query')
      if (query !== undefined) return { kind: 'fields', title: `searches the web for “${query}”`, rows: fieldRows(o) }
      break
    }
    case 'Glob':
    case 'Grep': {
      const pattern = str(o, 'pattern')
      if (pattern !== undefined) {
        const where = str(o, 'path') ?? p.cwd
        return { kind: 'path', label: 'pattern', value: pattern, extra: where ? `in ${where}` : undefined }
      }
      break
    }
  }
  const mcp = parseMcpToolName(p.tool)
  if (mcp?.tool !== undefined)
    return { kind: 'fields', title: `calls ${mcp.tool} of the MCP server ${mcp.server} with`, rows: fieldRows(o) }
  if (p.tool.startsWith('Task') || p.tool.startsWith('Team'))
    return { kind: 'fields', title: TOOL_TITLES[p.tool] ?? `calls ${p.tool}`, rows: fieldRows(o) }
  if (typeof p.input === 'object' && p.input !== null && !Array.isArray(p.input))
    return { kind: 'fields', title: `calls ${p.tool} with`, rows: fieldRows(o) }
  return { kind: 'json', json: rawJson(p.input) }
}

/**
 * A WebFetch call (docs/tools.md#web-tools): the domain in the title, since that is what its permission
 * rules name (`WebFetch(domain:…)`), then the whole address and the question asked of the page.
 */
function webFetchView(o: Record<string, unknown>): ReadableInput | undefined {
  const url = str(o, 'url')
  if (url === undefined) return undefined
  let domain: string
  try {
    domain = new URL(url).hostname
  } catch {
    return undefined
  }
  const prompt = str(o, 'prompt')
  const rows: FieldRow[] = [{ label: 'address', value: url }]
  if (prompt)
    rows.push({
      label: 'prompt',
      value: prompt,
      ...(prompt.length > 80 || prompt.includes('\n') ? { block: true } : {})
    })
  return { kind: 'fields', title: `fetches a web page from ${domain}`, rows }
}

/**
 * A NotebookEdit call (docs/tools.md#notebooks): which cell of which notebook is replaced, inserted
 * or deleted, then the new source as a block. `cell_id` absent on insert means the first position.
 */
function notebookEditView(o: Record<string, unknown>): ReadableInput | undefined {
  const path = str(o, 'notebook_path')
  if (path === undefined) return undefined
  const cell = str(o, 'cell_id')
  const type = str(o, 'cell_type')
  const mode = str(o, 'edit_mode') ?? 'replace'
  const title =
    mode === 'delete'
      ? `deletes cell ${cell ?? '(none named)'} of the notebook ${path}`
      : mode === 'insert'
        ? `inserts a ${type ?? 'code'} cell ${cell ? `after cell ${cell}` : 'at the start'} of the notebook ${path}`
        : `replaces cell ${cell ?? '(none named)'} of the notebook ${path}${type ? ` (as ${type})` : ''}`
  const source = str(o, 'new_source')
  const rows: FieldRow[] =
    mode !== 'delete' && source !== undefined ? [{ label: 'new source', value: source, block: true }] : []
  return { kind: 'fields', title, rows }
}

/** What the team and task tools do, in words (the card's line above their fields). */
const TOOL_TITLES: Record<string, string> = {
  TaskCreate: 'adds a task to the team’s list',
  TaskUpdate: 'changes a task',
  TaskGet: 'reads a task',
  TaskList: 'lists the team’s tasks',
  TeamCreate: 'creates a team',
  TeamDelete: 'deletes the team'
}

/** Field names as words (the inputs' own keys otherwise). */
const FIELD_LABELS: Record<string, string> = {
  taskId: 'task',
  subject: 'subject',
  description: 'description',
  activeForm: 'shown while working',
  status: 'status',
  owner: 'owner',
  addBlockedBy: 'waits for',
  addBlocks: 'blocks',
  team_name: 'team',
  url: 'address',
  prompt: 'prompt',
  query: 'query',
  allowed_domains: 'only from',
  blocked_domains: 'never from'
}

/** Each top-level field as a labelled value: text as written, lists joined, anything else as compact JSON. */
function fieldRows(o: Record<string, unknown>): FieldRow[] {
  return Object.entries(o)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([key, v]) => {
      const value =
        typeof v === 'string'
          ? v
          : Array.isArray(v) && v.every((x) => typeof x !== 'object')
            ? v.map(String).join(', ')
            : typeof v === 'object'
              ? JSON.stringify(v)
              : String(v)
      const label = FIELD_LABELS[key] ?? key.replace(/_/g, ' ')
      return {
        label,
        value:
          key === 'taskId' || key === 'addBlockedBy' || key === 'addBlocks'
            ? value
                .split(', ')
                .map((id) => `#${id}`)
                .join(', ')
            : value,
        ...(value.length > 80 || value.includes('\n') ? { block: true } : {})
      }
    })
}

/**
 * An Agent call as the card words it (docs/agents.md#agent-definitions, docs/teams.md#spawning-a-teammate): a `name` makes a teammate (its `backend`
 * worker or process), `run_in_background` a background subagent; otherwise a subagent of
 * `subagent_type`, or a fork when the call names no type and forks are on (the card cannot know:
 * it says "a subagent of type general-purpose", the runtime's default).
 */
export function spawnView(o: Record<string, unknown>): SpawnView {
  const name = str(o, 'name')
  const type = str(o, 'subagent_type') ?? 'general-purpose'
  const background = o.run_in_background === true
  return {
    who: name ? `a teammate named ${name}` : background ? 'a background subagent' : 'a subagent',
    type,
    mode: str(o, 'mode'),
    backend: name ? (str(o, 'backend') ?? 'default') : background ? 'in the background' : undefined,
    team: str(o, 'team_name'),
    model: str(o, 'model'),
    description: str(o, 'description'),
    prompt: str(o, 'prompt') ?? ''
  }
}

/** A SendMessage call: to whom, and the message — plain text, or a protocol message named by its type. */
function sendMessageView(o: Record<string, unknown>): ReadableInput {
  const to = str(o, 'to') ?? 'someone'
  const message = o.message
  const rows: FieldRow[] = []
  if (typeof message === 'string') rows.push({ label: 'message', value: message, block: true })
  else if (message && typeof message === 'object') {
    const m = message as Record<string, unknown>
    const type = typeof m.type === 'string' ? m.type.replace(/_/g, ' ') : 'message'
    rows.push({ label: 'kind', value: type })
    for (const [key, v] of Object.entries(m))
      if (key !== 'type' && v !== undefined)
        rows.push({
          label: key.replace(/_/g, ' '),
          value: typeof v === 'string' ? v : JSON.stringify(v),
          ...(typeof v === 'string' && v.length > 80 ? { block: true } : {})
        })
  }
  const summary = str(o, 'summary')
  if (summary) rows.unshift({ label: 'summary', value: summary })
  return { kind: 'fields', title: to === '*' ? 'sends a message to the whole team' : `sends a message to ${to}`, rows }
}

/**
 * One line saying what a request would do, for the compact bar pinned to a pane: the command, the
 * file and the size of its change, who a spawn starts, the call's title.
 */
export function inputSummary(view: ReadableInput): string {
  switch (view.kind) {
    case 'command':
      return view.command
    case 'diff': {
      const added = view.lines.filter((l) => l.kind === 'add').length
      const removed = view.lines.filter((l) => l.kind === 'del').length
      return `${view.path ?? 'a file'} (+${added} −${removed})`
    }
    case 'plan':
      return view.lines.find((l) => l.text.trim() !== '')?.text ?? 'a plan'
    case 'path':
      return `${view.label} ${view.value}${view.extra ? ` ${view.extra}` : ''}`
    case 'spawn':
      return `starts ${view.spawn.who} (${view.spawn.type}${view.spawn.mode ? `, ${view.spawn.mode} mode` : ''}${view.spawn.backend ? `, ${view.spawn.backend}` : ''})`
    case 'fields':
      return `${view.title}${view.rows[0] ? `: ${view.rows[0].value.split('\n')[0]}` : ''}`
    case 'json':
      return view.json.replace(/\s+/g, ' ')
  }
}
