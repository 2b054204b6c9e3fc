import path from 'node:path'
import type { PermissionSubject } from '../../../shared/permissions'
import { commandEffects, type ArgValue } from '../../../shared/readOnlyCommands'
import { lexShell, type ShellNode } from './shellLexer'

/**
 * Rules a person could add with "Always allow" (docs/permissions.md#permissions, docs/ui.md#the-workspace-ui), narrowest useful first:
 * `Bash(npm test:*)` (command and subcommand word), `Edit(./src/**)` (the top directory inside
 * the workspace, or the file itself at the top), `Read(//abs/dir/**)` outside it, `Agent(Explore)`.
 * Lexical only (no file system), so it is synchronous; the engine still decides on canonical paths.
 */
export function suggestRules(subject: PermissionSubject, cwd: string): string[] {
  switch (subject.kind) {
    case 'read':
      return [pathRule('Read', subject.path, cwd)]
    case 'edit':
      return [pathRule('Edit', subject.path, cwd)]
    case 'bash':
      return bashRules(subject.command)
    case 'tool':
      return subject.tool ? [subject.specifier ? `${subject.tool}(${subject.specifier})` : subject.tool] : []
    case 'none':
      return []
  }
}

function pathRule(tool: string, p: string, cwd: string): string {
  const abs = path.resolve(cwd, p)
  const rel = path.relative(cwd, abs)
  if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) {
    const [top, ...rest] = rel.split(path.sep)
    return rest.length === 0 ? `${tool}(./${top})` : `${tool}(./${top}/**)`
  }
  return `${tool}(/${path.dirname(abs)}/**)`
}

/** Commands whose rule would allow running arbitrary code (`Bash(bash:*)` allows `bash evil.sh`), or that need none. */
const NEVER_SUGGESTED = new Set([
  'cd',
  'bash',
  'sh',
  'zsh',
  'dash',
  'ksh',
  'eval',
  'exec',
  'sudo',
  'env',
  'xargs',
  'source',
  '.',
  'command',
  'builtin',
  'nohup',
  'timeout',
  'nice',
  'time',
  'node',
  'python',
  'python3',
  'perl',
  'ruby'
])

function bashRules(command: string, depth = 0): string[] {
  let nodes: ShellNode[]
  try {
    nodes = lexShell(command)
  } catch {
    return []
  }
  const out = new Set<string>()
  const visitArgv = (argv: ArgValue[]): void => {
    const [name, sub] = argv
    if (typeof name !== 'string' || name.includes('/')) return
    if (NEVER_SUGGESTED.has(name)) {
      if (depth > 4) return
      for (const run of commandEffects(argv).runs) {
        if (run.kind === 'argv') visitArgv(run.argv)
        else for (const r of bashRules(run.code, depth + 1)) out.add(r)
      }
      return
    }
    const useSub = typeof sub === 'string' && /^[A-Za-z][\w:-]*$/.test(sub)
    out.add(`Bash(${useSub ? `${name} ${sub}` : name}:*)`)
  }
  const visit = (list: ShellNode[]): void => {
    for (const n of list) {
      if (n.type === 'group') {
        visit(n.body)
        continue
      }
      for (const w of n.words) for (const s of w.subs) visit(s)
      visitArgv(n.words.map((w) => w.value))
    }
  }
  visit(nodes)
  return [...out]
}
