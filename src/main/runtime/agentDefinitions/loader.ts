import { readdir, readFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { BUILTIN_AGENTS } from './builtins'
import type { ParsedAgentFile } from './frontmatter'
import type { AgentDefinition, AgentFileReport } from './schema'

/** Input of {@link loadAgentDefinitions}. */
export interface LoadAgentDefinitionsOptions {
  /** The workspace. */
  cwd: string
  /** Swarmdesk's home (`SWARMDESK_HOME` or `~/.swarmdesk`, see `swarmdeskHome()`). */
  home: string
  /** The person's home, for `~/.claude/agents/`; `os.homedir()` by default. */
  userHome?: string
  /**
   * Whether the workspace is trusted (docs/permissions.md#permissions "Project trust": `<home>/trusted.json` or
   * `--trust-project`). Until it is, a project definition cannot raise its agents' permission
   * mode: see {@link UNTRUSTED_PROJECT_MODES}. False when omitted (fails closed).
   */
  projectTrusted?: boolean
}

/**
 * Permission modes a project's own definition may only ask for once the workspace is trusted:
 * the ones that let an agent act without a person's answer (docs/permissions.md#permissions: an untrusted workspace's
 * settings cannot switch on `bypassPermissions`; a definition file shipped in a cloned repository
 * is the same kind of input). `plan`, `dontAsk` and `default` only restrict, so they always apply.
 */
export const UNTRUSTED_PROJECT_MODES: ReadonlySet<string> = new Set(['bypassPermissions', 'acceptEdits'])

/** What {@link loadAgentDefinitions} found. */
export interface LoadedAgentDefinitions {
  /** The effective definition of each name after precedence: the built-ins' names first (a replacing file takes its built-in's place), then custom names in precedence order. */
  definitions: Map<string, AgentDefinition>
  /** One report per definition file found, in precedence order (winner of a clash first). */
  files: AgentFileReport[]
  /** For each built-in a file replaced: the built-in's name → the winning file's path. */
  overriddenBuiltins: Map<string, string>
}

/**
 * The folders read, highest precedence first (docs/agents.md#agent-definitions "project beats user"; within a scope,
 * Swarmdesk's own folder beats the `.claude/` one kept for compatibility). Built-ins come last:
 * a custom file named like a built-in replaces it, as in Claude Code.
 */
export function agentDirectories(
  options: LoadAgentDefinitionsOptions
): Array<{ dir: string; kind: 'project' | 'user' }> {
  const cwd = resolve(options.cwd)
  return [
    { dir: join(cwd, '.swarmdesk', 'agents'), kind: 'project' },
    { dir: join(cwd, '.claude', 'agents'), kind: 'project' },
    { dir: join(resolve(options.home), 'agents'), kind: 'user' },
    { dir: join(options.userHome ?? homedir(), '.claude', 'agents'), kind: 'user' }
  ]
}

/**
 * Loads every agent definition visible from `cwd` (docs/agents.md#agent-definitions): built-ins, then `*.md` files in the
 * folders of {@link agentDirectories} (subfolders included, hidden ones skipped, files in path
 * order). A missing folder is fine; a folder listed twice (home = cwd) is read once. Every file
 * appears in `files`, usable or not; unusable files (with problems) never take a name. A clash
 * sets `overriddenBy` on the losing file and a warning on both. Never throws for file contents;
 * an unreadable file is a problem on field `file`.
 */
export async function loadAgentDefinitions(options: LoadAgentDefinitionsOptions): Promise<LoadedAgentDefinitions> {
  const parsed: ParsedAgentFile[] = []
  const seenDirs = new Set<string>()
  for (const { dir, kind } of agentDirectories(options)) {
    if (seenDirs.has(dir)) continue
    seenDirs.add(dir)
    for (const path of await markdownFiles(dir)) parsed.push(await readAgentFile(path, kind))
  }
  if (options.projectTrusted !== true) for (const file of parsed) dropUntrustedMode(file)
  const winners = new Map<string, { report: AgentFileReport; definition: AgentDefinition }>()
  for (const { report, definition } of parsed) {
    if (!definition) continue
    const winner = winners.get(definition.name)?.report
    if (winner) {
      report.overriddenBy = winner.source
      report.warnings.push({
        field: 'name',
        message: `'${definition.name}' is also defined by ${winner.source}, which takes precedence; this file is not used`
      })
      winner.warnings.push({
        field: 'name',
        message: `'${definition.name}' is also defined by ${report.source}; this file takes precedence`
      })
    } else winners.set(definition.name, { report, definition })
  }
  const definitions = new Map<string, AgentDefinition>()
  const overriddenBuiltins = new Map<string, string>()
  for (const builtin of BUILTIN_AGENTS) {
    const winner = winners.get(builtin.name)
    if (winner) {
      overriddenBuiltins.set(builtin.name, winner.report.source)
      winner.report.warnings.push({ field: 'name', message: `replaces the built-in agent '${builtin.name}'` })
    }
    definitions.set(builtin.name, winner?.definition ?? builtin)
  }
  for (const [name, { definition }] of winners) if (!definitions.has(name)) definitions.set(name, definition)
  return { definitions, files: parsed.map((p) => p.report), overriddenBuiltins }
}

/**
 * A project definition's escalating `permissionMode` in an untrusted workspace: removed from the
 * definition (its agents then run in the mode docs/permissions.md#permissions's precedence gives them without it) and
 * reported as a warning on the file, naming the key and how to trust the workspace.
 */
function dropUntrustedMode(file: ParsedAgentFile): void {
  const mode = file.definition?.permissionMode
  if (
    !file.definition ||
    file.definition.source.kind !== 'project' ||
    mode === undefined ||
    !UNTRUSTED_PROJECT_MODES.has(mode)
  )
    return
  delete file.definition.permissionMode
  file.report.warnings.push({
    field: 'permissionMode',
    message: `'${mode}' ignored: this workspace is not trusted, so its own agent definitions cannot raise the permission mode (trust the workspace in Settings, or pass --trust-project)`
  })
}

async function readAgentFile(path: string, kind: 'project' | 'user'): Promise<ParsedAgentFile> {
  try {
    // the YAML parser loads with the first definition file: most workspaces and teammates have none
    const { parseAgentFile } = await import('./frontmatter')
    return parseAgentFile(await readFile(path, 'utf8'), path, kind)
  } catch (error) {
    const message = `cannot be read: ${(error as Error).message}`
    return {
      report: {
        name: null,
        source: path,
        tools: null,
        model: null,
        warnings: [],
        problems: [{ field: 'file', message }]
      }
    }
  }
}

async function markdownFiles(dir: string): Promise<string[]> {
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return []
  }
  const out: string[] = []
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.')) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...(await markdownFiles(path)))
    else if (entry.name.endsWith('.md') && (entry.isFile() || entry.isSymbolicLink())) out.push(path)
  }
  return out
}
