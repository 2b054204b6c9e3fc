/**
 * The "Allow for the team in <dir>" answer of a teammate's permission card
 * (docs/teams.md#allowed-paths): which file tools offer it, and the directory it would add to the
 * team's allowed paths. The renderer uses it to label the button, main to check the request it
 * answers: both compute the same directory from the same request.
 */

/** The file tools whose path a team's allowed paths cover, and the input field holding that path. */
const FILE_TOOL_PATH: Readonly<Record<string, string>> = {
  Read: 'file_path',
  Edit: 'file_path',
  MultiEdit: 'file_path',
  Write: 'file_path',
  NotebookEdit: 'notebook_path'
}

/** `path` resolved against `base` and normalized, POSIX style (`.` and `..` folded, no trailing `/`). */
function resolvePosix(base: string, path: string): string {
  const parts: string[] = []
  for (const part of (path.startsWith('/') ? path : `${base}/${path}`).split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') parts.pop()
    else parts.push(part)
  }
  return `/${parts.join('/')}`
}

/**
 * The directory "Allow for the team" would add for request `p`: the folder of the file a teammate
 * of `team` (its agent id `name@team`) asks to read or edit, when that folder is outside
 * `workspace` (the workspace folder, absolute). Undefined when the card offers no such answer: no
 * team, not its teammate, not a file tool, no path, a file inside the workspace, or a file at `/`.
 * A relative path is the asking agent's `cwd`'s, else the workspace's. Main still makes the
 * directory canonical (links resolved) when it adds it.
 */
export function teamAllowDirOf(
  p: { agentId: string; tool: string; input: unknown; cwd?: string | undefined },
  team: string | undefined,
  workspace: string
): string | undefined {
  if (!team || !p.agentId.endsWith(`@${team}`)) return undefined
  const field = FILE_TOOL_PATH[p.tool]
  const raw = field && p.input && typeof p.input === 'object' ? (p.input as Record<string, unknown>)[field] : undefined
  if (typeof raw !== 'string' || !raw.trim()) return undefined
  const file = resolvePosix(p.cwd ?? workspace, raw)
  const dir = file.slice(0, file.lastIndexOf('/')) || '/'
  const root = resolvePosix('/', workspace)
  if (dir === '/' || dir === root || dir.startsWith(`${root}/`)) return undefined
  return dir
}
