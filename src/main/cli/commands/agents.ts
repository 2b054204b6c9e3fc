import { statSync } from 'node:fs'
import { homedir } from 'node:os'
import { relative, resolve, sep } from 'node:path'
import {
  loadAgentDefinitions,
  type AgentDefinition,
  type AgentFileReport,
  type LoadedAgentDefinitions
} from '../../runtime/agentDefinitions'
import { isWorkspaceTrusted } from '../../runtime/permissions'
import { swarmdeskHome } from '../../runtime/storage'
import { parseCommandArgs, UsageError } from '../io'

/** Where `agents list` writes and which homes it reads; tests pass their own. */
export interface AgentsIo {
  /** Receives whole chunks of output; stdout by default. */
  stdout: (text: string) => void
  /** For SWARMDESK_HOME and HOME; process.env by default. */
  env: NodeJS.ProcessEnv
}

const USAGE = 'Use: swarmdesk agents list [--cwd DIR] [--json]'

/**
 * `swarmdesk agents list [--cwd DIR] [--json]` (docs/events.md#event-stream-and-command-line). `--json` prints one JSON array with
 * one entry per definition FILE found — `{name, source, tools, model, overriddenBy?, warnings,
 * problems}` — and no built-ins: they are not files, and the array is what a script checks for
 * broken definitions. The human output lists every agent visible from DIR, built-ins included
 * (marked built-in), then the files not in use, each with its problems and warnings under it.
 * Resolves to 0 whatever the files contain (listing them is the success); throws
 * {@link UsageError} (exit 2) on bad flags or a `--cwd` that is not a directory.
 */
export async function agentsCommand(argv: string[], io: Partial<AgentsIo> = {}): Promise<number> {
  const [sub, ...rest] = argv
  if (sub !== 'list') throw new UsageError(`swarmdesk agents: unknown subcommand '${sub ?? ''}'. ${USAGE}`)
  const { values } = parseCommandArgs('agents list', rest, { cwd: { type: 'string' }, json: { type: 'boolean' } })
  const cwd = resolve(values.cwd ?? process.cwd())
  if (!isDirectory(cwd)) throw new UsageError(`swarmdesk agents list: --cwd ${cwd} is not a directory. ${USAGE}`)
  const env = io.env ?? process.env
  const userHome = env.HOME || homedir()
  const write = io.stdout ?? ((text: string) => void process.stdout.write(text))
  const home = swarmdeskHome(env)
  const loaded = await loadAgentDefinitions({
    cwd,
    home,
    userHome,
    projectTrusted: await isWorkspaceTrusted(home, cwd)
  })
  write(values.json ? JSON.stringify(loaded.files) + '\n' : renderTable(loaded, { cwd, userHome }))
  return 0
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

interface Row {
  name: string
  source: string
  tools: string
  model: string
  notes: string[]
}

/** The human table: agents in use first (in precedence order), then files not in use. */
function renderTable(loaded: LoadedAgentDefinitions, places: { cwd: string; userHome: string }): string {
  const show = (path: string) => displayPath(path, places)
  const reports = new Map(loaded.files.map((f) => [f.source, f]))
  const rows: Row[] = []
  for (const def of loaded.definitions.values()) {
    const report = def.source.kind === 'builtin' ? undefined : reports.get(def.source.path)
    rows.push({
      name: def.name,
      source: def.source.kind === 'builtin' ? 'built-in' : show(def.source.path),
      tools: toolsOf(def),
      model: def.model ?? 'inherit',
      notes: report ? issueLines(report) : []
    })
  }
  for (const [name, path] of loaded.overriddenBuiltins)
    rows.push({ name, source: 'built-in', tools: '', model: '', notes: [`replaced by ${show(path)}`] })
  for (const f of loaded.files.filter((f) => f.problems.length > 0 || f.overriddenBy)) {
    const status = f.overriddenBy
      ? `not used: overridden by ${show(f.overriddenBy)}`
      : `not loaded: ${f.problems.length} problem${f.problems.length === 1 ? '' : 's'}`
    // a file that failed to load grants nothing: listing its tools would read as if it did
    const tools = f.overriddenBy ? (f.tools?.join(', ') ?? 'all') : '-'
    rows.push({
      name: f.name ?? '(no name)',
      source: show(f.source),
      tools,
      model: f.model ?? '',
      notes: [status, ...issueLines(f)]
    })
  }
  const head: Row = { name: 'NAME', source: 'SOURCE', tools: 'TOOLS', model: 'MODEL', notes: [] }
  const width = (key: 'name' | 'source' | 'tools') => Math.max(...[head, ...rows].map((r) => r[key].length))
  const [wn, ws] = [width('name'), width('source')]
  // a long tool list wraps inside its column, so MODEL stays one column for every row
  const wt = Math.min(width('tools'), TOOLS_WIDTH)
  const line = (r: Row): string[] => {
    const [first, ...more] = wrapList(r.tools, wt)
    return [
      `${r.name.padEnd(wn)}  ${r.source.padEnd(ws)}  ${first.padEnd(wt)}  ${r.model}`.trimEnd(),
      ...more.map((t) => `${''.padEnd(wn + ws + 4)}${t}`)
    ]
  }
  const body = rows.flatMap((r) => [...line(r), ...r.notes.map((n) => `    ${n}`)])
  const invalid = loaded.files.filter((f) => f.problems.length > 0).length
  const summary = `${loaded.files.length} definition file${loaded.files.length === 1 ? '' : 's'} found, ${invalid} with problems.`
  return [...line(head), ...body, '', summary, ''].join('\n')
}

/** Widest the TOOLS column grows before its lists wrap. */
const TOOLS_WIDTH = 48

/** A comma-separated list cut into lines of at most `width` characters, at the commas (a single longer item keeps its own line). */
function wrapList(list: string, width: number): string[] {
  const lines: string[] = []
  let current = ''
  for (const item of list.split(', ')) {
    const next = current ? `${current}, ${item}` : item
    if (current && next.length + 1 > width) {
      lines.push(`${current},`)
      current = item
    } else current = next
  }
  return [...lines, current]
}

function toolsOf(def: AgentDefinition): string {
  if (def.tools) return def.tools.filter((t) => !def.disallowedTools.includes(t)).join(', ') || 'none'
  return def.disallowedTools.length > 0 ? `all except ${def.disallowedTools.join(', ')}` : 'all'
}

function issueLines(report: AgentFileReport): string[] {
  return [
    ...report.problems.map((p) => `problem  ${p.field}: ${p.message}`),
    ...report.warnings.map((w) => `warning  ${w.field}: ${w.message}`)
  ]
}

function displayPath(path: string, places: { cwd: string; userHome: string }): string {
  const inCwd = relative(places.cwd, path)
  if (!inCwd.startsWith('..') && !inCwd.startsWith(sep)) return inCwd
  const inHome = relative(places.userHome, path)
  return !inHome.startsWith('..') && !inHome.startsWith(sep) ? `~${sep}${inHome}` : path
}
