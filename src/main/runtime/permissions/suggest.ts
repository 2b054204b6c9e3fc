import path from 'node:path'
import type { PermissionSubject } from '../../../shared/permissions'
import { lexShell, type ShellNode } from './shellLexer'

/**
 * Rules a person could add with "Always allow" (SPEC §4, §11), narrowest useful first:
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

function bashRules(command: string): string[] {
  let nodes: ShellNode[]
  try {
    nodes = lexShell(command)
  } catch {
    return []
  }
  const out = new Set<string>()
  const visit = (list: ShellNode[]): void => {
    for (const n of list) {
      if (n.type === 'group') { visit(n.body); continue }
      const words = n.words.map((w) => w.value)
      const [name, sub] = words
      if (typeof name !== 'string' || name === 'cd') continue
      const useSub = typeof sub === 'string' && /^[A-Za-z][\w:-]*$/.test(sub) && !sub.includes('/')
      out.add(`Bash(${useSub ? `${name} ${sub}` : name}:*)`)
    }
  }
  visit(nodes)
  return [...out]
}
