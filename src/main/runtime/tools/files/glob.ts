import { statSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import picomatch from 'picomatch'
import { z } from 'zod'
import { errnoCode, resolveToolPath } from './paths'
import { mapInSlices } from './pool'
import { type Tool, type ToolContext, type ToolResult, ToolError } from '../types'
import { throwIfAborted, walkFiles } from './walk'

/** Most paths one Glob returns (Claude Code's cap); the rest are counted in a note. */
export const GLOB_MAX_RESULTS = 100

/** Never searched by Glob, even when not gitignored: dependency trees drown every pattern. */
const GLOB_SKIP_DIRS: ReadonlySet<string> = new Set(['node_modules'])

const GlobInput = z.object({
  pattern: z.string().min(1).describe('Glob pattern, e.g. "**/*.ts" or "src/**/*.test.ts".'),
  path: z.string().optional().describe('Directory to search in (default: the working directory).')
})

/** Input of the Glob tool (Claude Code's fields). */
export type GlobInput = z.infer<typeof GlobInput>

/**
 * Glob (docs/tools.md#tools): absolute paths of files (never directories) under `path` (default cwd) whose
 * path relative to it matches `pattern` (picomatch; `*` stays within one segment, `**` crosses
 * them; names starting with a dot match only when the pattern spells the dot, as in Claude
 * Code). Newest first by mtime (ties by path), at most {@link GLOB_MAX_RESULTS} with a note
 * counting the rest; `No files found` when none. `.git`, `node_modules` and
 * `.swarmdesk/worktrees` are never searched; .gitignore is not applied, so build outputs can be
 * found. An absolute pattern searches from its own literal prefix and ignores `path`.
 * Errors (as ToolError): `path` missing or not a directory.
 */
export const GlobTool: Tool<GlobInput> = {
  name: 'Glob',
  description: [
    'Finds files by name pattern, fast in any size of codebase.',
    '- Patterns like "**/*.js" or "src/**/*.ts"; "*.ts" matches only directly in the search directory, "**/" reaches into subdirectories.',
    '- Returns absolute paths of matching files, most recently modified first.',
    '- Files and folders starting with a dot are matched only if the pattern names the dot (".github/**/*.yml").',
    '- node_modules and .git are never searched.',
    '- To search file contents use Grep.'
  ].join('\n'),
  inputSchema: GlobInput,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  // The directory the glob really reads: its search directory plus the pattern's fixed leading
  // part, so `../../etc/*`, `/etc/*` or `link-to-etc/*` are judged where they point.
  permissionSubject: (input, ctx) => {
    const { searchDir, pattern } = splitPattern(input, ctx.cwd)
    const base = picomatch.scan(pattern).base
    return { kind: 'read', path: base ? resolve(searchDir, base) : searchDir }
  },
  call: globTool
}

async function globTool(input: GlobInput, ctx: ToolContext): Promise<ToolResult> {
  const { searchDir, pattern } = splitPattern(input, ctx.cwd)
  await assertDirectory(searchDir)
  const scan = picomatch.scan(pattern)
  if (!scan.isGlob) {
    const literal = join(searchDir, pattern)
    return {
      content: (await stat(literal).then(
        (s) => s.isFile(),
        () => false
      ))
        ? literal
        : 'No files found'
    }
  }
  // Only walk under the pattern's literal prefix: "src/**/*.ts" never needs to see test/.
  const walkRoot = join(searchDir, scan.base)
  if (!(await isDirectory(walkRoot))) return { content: 'No files found' }

  let matches: (path: string) => boolean
  try {
    matches = picomatch(pattern, { dot: false })
  } catch (error) {
    // picomatch refuses patterns it cannot compile (e.g. longer than 65,536 characters).
    throw new ToolError(
      `Invalid glob pattern (${pattern.length} characters): ${(error as Error).message}. Use a shorter pattern such as "src/**/*.ts".`
    )
  }
  const files = await walkFiles({
    root: walkRoot,
    gitignore: false,
    hidden: /(^|\/)\./.test(pattern),
    skipDirNames: GLOB_SKIP_DIRS,
    signal: ctx.signal
  })
  const matched = files.filter((file) => matches(toPosix(relative(searchDir, file))))
  const dated = await mapInSlices(
    matched,
    (file) => ({ file, mtimeMs: mtimeOf(file) }),
    () => throwIfAborted(ctx.signal)
  )
  dated.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))

  if (dated.length === 0) return { content: 'No files found' }
  const shown = dated.slice(0, GLOB_MAX_RESULTS).map((entry) => entry.file)
  if (dated.length <= GLOB_MAX_RESULTS) return { content: shown.join('\n') }
  return {
    content:
      `${shown.join('\n')}\n(Results are truncated: showing the ${GLOB_MAX_RESULTS} most recently modified of ` +
      `${dated.length} files. Use a more specific pattern or path.)`
  }
}

/** An absolute pattern carries its own search directory: its literal prefix. */
function splitPattern(input: GlobInput, cwd: string): { searchDir: string; pattern: string } {
  if (!isAbsolute(input.pattern)) {
    return { searchDir: resolveToolPath(cwd, input.path ?? '.'), pattern: input.pattern.replace(/^(\.\/)+/, '') }
  }
  const scan = picomatch.scan(input.pattern)
  if (!scan.isGlob) return { searchDir: resolveToolPath(cwd, '/'), pattern: input.pattern.slice(1) }
  return { searchDir: scan.base === '' ? '/' : scan.base, pattern: scan.glob }
}

async function assertDirectory(dir: string): Promise<void> {
  try {
    if (!(await stat(dir)).isDirectory())
      throw new ToolError(`path must be a directory, but ${dir} is a file. Use Read to see it.`)
  } catch (error) {
    if (error instanceof ToolError) throw error
    throw new ToolError(
      errnoCode(error) === 'ENOENT'
        ? `Directory does not exist: ${dir}.`
        : `Cannot search ${dir}: ${errnoCode(error) ?? String(error)}.`
    )
  }
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (stats) => stats.isDirectory(),
    () => false
  )
}

function mtimeOf(path: string): number {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/')
}
