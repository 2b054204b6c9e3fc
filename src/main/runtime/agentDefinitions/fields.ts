import { z } from 'zod'
import { USER_PERMISSION_MODES } from '../../../shared/permissions'
import { MODEL_ALIASES } from '../model'
import { AgentColorSchema, type FileIssue } from './schema'
import { classifyToolName } from './toolNames'

/** Issues found while reading fields; `problems` make the file unusable. */
export interface IssueSink {
  warnings: FileIssue[]
  problems: FileIssue[]
}

/** A field's value in the definition, or `undefined` when omitted or ignored. */
type Reader<T> = (value: unknown, field: string, sink: IssueSink) => T | undefined

/**
 * Optional scalar fields. `strict` ones are problems when unreadable, because ignoring them would
 * give the agent more than its author wrote (a typo in `permissionMode: plan` must not run the
 * agent in the default mode; a bad `isolation` must not run it in the main checkout). The others
 * are warnings and the default applies.
 */
const SCALARS = {
  permissionMode: {
    schema: z.enum(USER_PERMISSION_MODES),
    strict: true,
    expected: `one of ${USER_PERMISSION_MODES.join(', ')}`
  },
  maxTurns: { schema: z.number().int().positive(), strict: true, expected: 'a positive whole number' },
  isolation: { schema: z.literal('worktree'), strict: true, expected: 'worktree' },
  background: { schema: z.boolean(), strict: false, expected: 'true or false' },
  omitClaudeMd: { schema: z.boolean(), strict: false, expected: 'true or false' },
  color: { schema: AgentColorSchema, strict: false, expected: `one of ${AgentColorSchema.options.join(', ')}` }
} as const

type Scalars = typeof SCALARS
/** The optional scalar fields a definition file may set. */
export type ScalarField = keyof Scalars
/** Frontmatter keys this version reads. Others get a warning. */
export const KNOWN_FIELDS: readonly string[] = [
  'name',
  'description',
  'tools',
  'disallowedTools',
  'model',
  ...Object.keys(SCALARS)
]

/** Reads one optional scalar field (see {@link SCALARS} for which are strict). `null` = omitted. */
export function readScalar<K extends ScalarField>(
  field: K,
  value: unknown,
  sink: IssueSink
): z.infer<Scalars[K]['schema']> | undefined {
  if (value === undefined || value === null) return undefined
  const spec = SCALARS[field]
  const parsed = spec.schema.safeParse(value)
  if (parsed.success) return parsed.data as z.infer<Scalars[K]['schema']>
  const issue = { field, message: `expected ${spec.expected}, got ${JSON.stringify(value)}` }
  if (spec.strict) sink.problems.push(issue)
  else sink.warnings.push({ ...issue, message: `${issue.message}; ignored` })
  return undefined
}

/**
 * `tools` / `disallowedTools`: a comma-separated string (`Read, Grep, Glob`) or a YAML list, as
 * Claude Code accepts both. Entries are trimmed, empty ones dropped. Returns the list as written
 * (`!X` kept); `undefined` when omitted. Any other type is a problem: ignoring it would grant
 * every tool.
 */
export const readToolList: Reader<string[]> = (value, field, sink) => {
  if (value === undefined || value === null) return undefined
  const items =
    typeof value === 'string'
      ? value.split(',')
      : Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? (value as string[])
        : undefined
  if (!items) {
    sink.problems.push({
      field,
      message: `expected a comma-separated string or a list of tool names, got ${JSON.stringify(value)}`
    })
    return undefined
  }
  return items.map((s) => s.trim()).filter((s) => s !== '')
}

/**
 * Turns a declared list into names the runtime knows: `Task` → `Agent`; unknown names, `mcp__*`
 * tools and `Tool(spec)` entries are warnings and left out (never granted). `!X` entries keep
 * their `!`. `*` alone means every tool (Claude Code's spelling), returned as `undefined`.
 */
export function normaliseToolList(entries: string[] | undefined, field: string, sink: IssueSink): string[] | undefined {
  if (entries === undefined || entries.includes('*')) return undefined
  const out: string[] = []
  for (const entry of entries) {
    const bang = entry.startsWith('!') ? '!' : ''
    const reading = classifyToolName(entry.slice(bang.length).trim())
    if (reading.kind === 'known') {
      if (reading.legacy)
        sink.warnings.push({
          field,
          message: `'${reading.legacy}' is Claude Code's old name of ${reading.name}; read as ${reading.name}`
        })
      out.push(bang + reading.name)
    } else sink.warnings.push({ field, message: toolWarning(reading.kind, reading.name) })
  }
  return out
}

function toolWarning(kind: 'mcp' | 'specifier' | 'unknown', name: string): string {
  if (kind === 'mcp') return `'${name}': MCP tools are not supported; ignored`
  if (kind === 'specifier')
    return `'${name}': tool specifiers are not supported; the entry is ignored (the tool is not granted)`
  return `unknown tool '${name}'; ignored`
}

/** `model`: `inherit`, an alias, or a model id. Anything else is kept as written (the endpoint may know it) with a warning. */
export const readModel: Reader<string> = (value, field, sink) => {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' || value.trim() === '') {
    sink.warnings.push({
      field,
      message: `expected inherit, ${Object.keys(MODEL_ALIASES).join(', ')} or a model id, got ${JSON.stringify(value)}; ignored (the parent's model is used)`
    })
    return undefined
  }
  const model = value.trim()
  if (model !== 'inherit' && !(model in MODEL_ALIASES) && !model.startsWith('claude-')) {
    sink.warnings.push({
      field,
      message: `unknown model '${model}' (not inherit, an alias — ${Object.keys(MODEL_ALIASES).join(', ')} — or a claude-… id); sent to the endpoint as written`
    })
  }
  return model
}
