import matter from 'gray-matter'
import { BUILTIN_AGENTS, RESERVED_AGENT_NAMES } from './builtins'
import { KNOWN_FIELDS, normaliseToolList, readModel, readScalar, readToolList, type IssueSink } from './fields'
import { AGENT_NAME_PATTERN, type AgentDefinition, type AgentFileReport } from './schema'
import { splitToolList } from './tools'

/** One definition file read: its report, and its definition when it has no problems. */
export interface ParsedAgentFile {
  report: AgentFileReport
  definition?: AgentDefinition
}

/**
 * gray-matter would run `---js` frontmatter through `eval`: a cloned repository must never run
 * code because someone listed its agents. Only YAML (and JSON, which cannot run code) is read.
 */
const REFUSE = (): never => {
  throw new Error('only YAML frontmatter is read')
}
const MATTER_OPTIONS = { engines: { javascript: REFUSE, coffee: REFUSE } }

type Frontmatter = { data: Record<string, unknown>; body: string } | { problem: string }

/**
 * Parses one agent definition file (docs/agents.md#agent-definitions): YAML frontmatter between `---` lines, then the
 * system prompt. Never throws: whatever is wrong becomes a problem or a warning naming the field
 * (`frontmatter` for the block itself, `body` for the prompt). Frontmatter fields this version
 * does not read (Claude Code has a few more, e.g. `hooks`, `skills`) are warnings.
 */
export function parseAgentFile(text: string, path: string, kind: 'project' | 'user'): ParsedAgentFile {
  const sink: IssueSink = { warnings: [], problems: [] }
  const front = readFrontmatter(text)
  if ('problem' in front) {
    return {
      report: {
        name: null,
        source: path,
        tools: null,
        model: null,
        warnings: [],
        problems: [{ field: 'frontmatter', message: front.problem }]
      }
    }
  }
  const { data, body } = front
  const name = readName(data.name, sink)
  const description = readDescription(data.description, sink)
  const declaredTools = readToolList(data.tools, 'tools', sink)
  const declaredDisallowed = readToolList(data.disallowedTools, 'disallowedTools', sink)
  const model = readModel(data.model, 'model', sink)
  const scalars = {
    permissionMode: readScalar('permissionMode', data.permissionMode, sink),
    maxTurns: readScalar('maxTurns', data.maxTurns, sink),
    background: readScalar('background', data.background, sink) ?? false,
    isolation: readScalar('isolation', data.isolation, sink),
    omitClaudeMd: readScalar('omitClaudeMd', data.omitClaudeMd, sink) ?? false,
    color: readScalar('color', data.color, sink)
  }
  for (const key of Object.keys(data))
    if (!KNOWN_FIELDS.includes(key)) sink.warnings.push({ field: key, message: `unknown field '${key}'; ignored` })
  if (body === '')
    sink.warnings.push({ field: 'body', message: 'no system prompt: the text after the frontmatter is empty' })

  const { allow, exclude } = splitToolList(normaliseToolList(declaredTools, 'tools', sink))
  const disallowed = (
    normaliseToolList(
      declaredDisallowed?.map((t) => t.replace(/^!/, '')),
      'disallowedTools',
      sink
    ) ?? []
  ).concat(exclude)
  if (allow?.length === 0)
    sink.warnings.push({
      field: 'tools',
      message: 'the list grants no tool: this agent can only answer from its prompt'
    })

  const report: AgentFileReport = {
    name: typeof data.name === 'string' ? data.name : null,
    source: path,
    tools: declaredTools ?? null,
    model: model ?? null,
    warnings: sink.warnings,
    problems: sink.problems
  }
  if (sink.problems.length > 0 || name === undefined || description === undefined) return { report }
  const definition: AgentDefinition = {
    name,
    description,
    ...(allow !== undefined ? { tools: allow } : {}),
    disallowedTools: [...new Set(disallowed)],
    ...(model !== undefined ? { model } : {}),
    ...withoutUndefined(scalars),
    systemPrompt: body,
    source: { kind, path }
  } as AgentDefinition
  return { report, definition }
}

function readFrontmatter(raw: string): Frontmatter {
  const text = raw.replace(/^\uFEFF/, '')
  const firstLine = text.split(/\r?\n/, 1)[0]
  if (!/^---[ \t]*[A-Za-z]*[ \t]*$/.test(firstLine) || firstLine.startsWith('----')) {
    return {
      problem:
        'no YAML frontmatter: the file must start with a line "---", then the fields, then a line "---", then the system prompt'
    }
  }
  const language = firstLine.slice(3).trim().toLowerCase()
  if (language && !['yaml', 'yml'].includes(language))
    return { problem: `frontmatter language '${language}' is not supported; write YAML` }
  if (!/\r?\n---/.test(text.slice(firstLine.length)))
    return { problem: 'the frontmatter is not closed: add a line "---" after the fields' }
  let parsed: { data: unknown; content: string }
  try {
    parsed = matter(text, MATTER_OPTIONS)
  } catch (error) {
    return { problem: yamlProblem(error as Error, text) }
  }
  const data = parsed.data
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { problem: 'the frontmatter must be a YAML mapping of fields (name: …, description: …)' }
  return { data: data as Record<string, unknown>, body: parsed.content.trim() }
}

/**
 * The parser's reason with the line of the file it is about. gray-matter hands js-yaml the text
 * after the opening `---`, starting with that line's newline, so js-yaml's 0-based line is the
 * file's 1-based line minus one. An unknown tag is reported where the parser stopped (past the
 * value): the line holding the tag is the one to fix.
 */
function yamlProblem(error: Error & { reason?: string; mark?: { line: number } }, text: string): string {
  const tag = /unknown tag !<!([^>]*)>/.exec(error.message)?.[1]
  const tagLine = tag === undefined ? -1 : text.split(/\r?\n/).findIndex((l) => l.includes(`!${tag}`))
  const line = tagLine >= 0 ? tagLine + 1 : error.mark ? error.mark.line + 1 : undefined
  const where = line !== undefined ? ` (line ${line} of the file)` : ''
  const reason = error.reason ?? error.message.split('\n')[0]
  const hint =
    tag !== undefined ? `; YAML reads an unquoted leading '!' as a tag: quote it ("!Bash") or use disallowedTools` : ''
  return `the YAML does not parse: ${reason}${where}${hint}`
}

function readName(value: unknown, sink: IssueSink): string | undefined {
  if (value === undefined || value === null || value === '')
    sink.problems.push({
      field: 'name',
      message: 'required: the agent type callers name in subagent_type, e.g. name: code-reviewer'
    })
  // The built-ins' own names (Explore, Plan) are accepted as they are, so a file can replace them.
  else if (
    typeof value !== 'string' ||
    (!AGENT_NAME_PATTERN.test(value) && !BUILTIN_AGENTS.some((b) => b.name === value))
  )
    sink.problems.push({
      field: 'name',
      message: `must be lowercase letters and digits joined by hyphens (e.g. code-reviewer), got ${JSON.stringify(value)}`
    })
  else if (RESERVED_AGENT_NAMES.includes(value))
    sink.problems.push({ field: 'name', message: `'${value}' is reserved for fork subagents` })
  else return value
  return undefined
}

function readDescription(value: unknown, sink: IssueSink): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value.trim()
  sink.problems.push({ field: 'description', message: 'required: say when the parent should use this agent' })
  return undefined
}

function withoutUndefined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>
}
