import { stat } from 'node:fs/promises'
import { z } from 'zod'
import { compileGrepPattern } from './grepEngine'
import { buildFileFilter } from './grepFilter'
import { formatContent } from './grepFormat'
import { type FileHit, searchFiles, statRoot } from './grepSearch'
import { resolveToolPath } from './paths'
import { mapLimit } from './pool'
import { type Tool, type ToolContext, type ToolResult, ToolError } from '../types'

/** Most characters one Grep returns (as Bash's cap, docs/tools.md#tools); past it a marker says to narrow down. */
export const GREP_MAX_OUTPUT_CHARS = 30_000

const GrepInput = z.object({
  pattern: z.string().describe('Regular expression to search for (JavaScript/ripgrep syntax).'),
  path: z.string().optional().describe('File or directory to search in (default: the working directory).'),
  glob: z
    .string()
    .optional()
    .describe(
      'Only search files matching this glob, e.g. "*.js" or "*.{ts,tsx}"; several separated by spaces; "!" excludes.'
    ),
  type: z
    .string()
    .optional()
    .describe('Only search files of this type (rg names: js, ts, py, rust, go, java, md, json, yaml, css, html, sh…).'),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe(
      '"files_with_matches" (default): paths of matching files; "content": matching lines; "count": matching lines per file.'
    ),
  '-i': z.boolean().optional().describe('Case-insensitive search.'),
  '-n': z.boolean().optional().describe('Show line numbers (content mode; default true).'),
  '-A': z.number().int().nonnegative().optional().describe('Lines of context after each match (content mode).'),
  '-B': z.number().int().nonnegative().optional().describe('Lines of context before each match (content mode).'),
  '-C': z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Lines of context before and after each match (content mode).'),
  head_limit: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Show only the first N lines / files / counts (0: no limit).'),
  multiline: z.boolean().optional().describe('Let . match newlines and patterns span lines (default false).')
})

/** Input of the Grep tool (Claude Code's fields). */
export type GrepInput = z.infer<typeof GrepInput>

/**
 * Grep (docs/tools.md#tools): regex search in pure JS (no ripgrep binary needed) in ripgrep's default regex
 * syntax, never backtracking catastrophically (grepEngine.ts), ripgrep-like output with absolute paths:
 * - files_with_matches (default): `Found N files` then one path per line, newest first by mtime
 *   (as Claude Code); `No files found`.
 * - content: `path:line:text` (line numbers by default), context lines `path-line-text`, `--`
 *   between non-adjacent groups when -A/-B/-C ask for context; `No matches found`.
 * - count: `path:N` (N matching lines, as `rg --count`), by path, then a total line.
 * head_limit keeps the first N output lines / paths / counts and says so; output is capped at
 * {@link GREP_MAX_OUTPUT_CHARS}. What is searched: see `searchFiles` (.gitignore, hidden, binary).
 * Errors (as ToolError): invalid regex (with the engine's message), unknown type, missing path.
 */
export const GrepTool: Tool<GrepInput> = {
  name: 'Grep',
  description: [
    'Searches file contents with a regular expression (ripgrep-like; works without ripgrep installed).',
    '- Regex syntax as in JavaScript/ripgrep ("log.*Error", "function\\s+\\w+"); escape literal braces ("interface\\{\\}").',
    '- Filter files with glob ("*.js", "**/*.tsx") or type ("js", "py", "rust").',
    '- output_mode: "files_with_matches" (default) lists matching files; "content" shows matching lines (with -n line numbers, -A/-B/-C context); "count" shows matches per file.',
    '- Respects .gitignore and skips hidden and binary files.',
    '- Patterns match within single lines; set multiline: true for patterns spanning lines.',
    '- Use head_limit to keep large results short. Prefer Grep over grep or rg through Bash.'
  ].join('\n'),
  inputSchema: GrepInput,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  permissionSubject: (input, ctx) => ({ kind: 'read', path: resolveToolPath(ctx.cwd, input.path ?? '.') }),
  call: grepTool
}

async function grepTool(input: GrepInput, ctx: ToolContext): Promise<ToolResult> {
  const multiline = input.multiline === true
  const matcher = compileGrepPattern(input.pattern, { ignoreCase: input['-i'] === true, multiline })
  const fileFilter = buildFileFilter(input.glob, input.type)
  const root = resolveToolPath(ctx.cwd, input.path ?? '.')
  const rootStats = await statRoot(root)
  if (!rootStats) throw new ToolError(`Path does not exist: ${root}.`)
  if (!rootStats.isFile && !rootStats.isDirectory) throw new ToolError(`${root} is neither a file nor a directory.`)
  const mode = input.output_mode ?? 'files_with_matches'
  const hits = await searchFiles({
    root,
    rootIsFile: !rootStats.isDirectory,
    matcher,
    multiline,
    fileFilter,
    keepLines: mode === 'content',
    signal: ctx.signal
  })
  const limit = input.head_limit === undefined || input.head_limit === 0 ? Infinity : input.head_limit
  const text =
    mode === 'content'
      ? contentOutput(hits, input, limit)
      : mode === 'count'
        ? countOutput(hits, limit)
        : await filesOutput(hits, limit)
  return { content: capOutput(text) }
}

async function filesOutput(hits: FileHit[], limit: number): Promise<string> {
  if (hits.length === 0) return 'No files found'
  const dated = await mapLimit(hits, 32, async (hit) => ({ path: hit.path, mtimeMs: await mtimeOf(hit.path) }))
  dated.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : 1))
  const shown = dated.slice(0, limit)
  const header =
    shown.length < hits.length
      ? `Found ${hits.length} files (showing first ${shown.length}, head_limit)`
      : `Found ${hits.length} ${hits.length === 1 ? 'file' : 'files'}`
  return [header, ...shown.map((hit) => hit.path)].join('\n')
}

async function mtimeOf(path: string): Promise<number> {
  return stat(path).then(
    (stats) => stats.mtimeMs,
    () => 0
  )
}

function contentOutput(hits: FileHit[], input: GrepInput, limit: number): string {
  if (hits.length === 0) return 'No matches found'
  const context = input['-C'] ?? 0
  const lines = formatContent(hits, {
    before: input['-B'] ?? context,
    after: input['-A'] ?? context,
    lineNumbers: input['-n'] ?? true
  })
  if (lines.length <= limit) return lines.join('\n')
  return `${lines.slice(0, limit).join('\n')}\n[Showing the first ${limit} of ${lines.length} lines (head_limit).]`
}

function countOutput(hits: FileHit[], limit: number): string {
  if (hits.length === 0) return 'No matches found'
  const total = hits.reduce((sum, hit) => sum + hit.matched.length, 0)
  const rows = hits.slice(0, limit).map((hit) => `${hit.path}:${hit.matched.length}`)
  const shown = rows.length < hits.length ? ` (showing first ${rows.length} files, head_limit)` : ''
  return `${rows.join('\n')}\n\nFound ${total} matching ${total === 1 ? 'line' : 'lines'} in ${hits.length} ${hits.length === 1 ? 'file' : 'files'}${shown}.`
}

function capOutput(text: string): string {
  if (text.length <= GREP_MAX_OUTPUT_CHARS) return text
  const cut = text.lastIndexOf('\n', GREP_MAX_OUTPUT_CHARS)
  const kept = text.slice(0, cut > 0 ? cut : GREP_MAX_OUTPUT_CHARS)
  return `${kept}\n[Output truncated at ${GREP_MAX_OUTPUT_CHARS} characters: narrow the pattern, path, glob or type, or use head_limit.]`
}
