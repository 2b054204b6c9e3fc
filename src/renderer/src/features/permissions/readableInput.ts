import type { PendingPermission } from '../../../../shared/ipc'

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
 * A tool input as a person should read it (SPEC §11: command; diff for Edit/Write; path; the plan
 * of a plan approval, SPEC §9.8).
 */
export type ReadableInput =
  | { kind: 'command'; command: string; description?: string; /** Where it runs (absolute). */ cwd?: string }
  | { kind: 'plan'; lines: PlanLine[] }
  | { kind: 'diff'; path?: string; lines: DiffLine[] }
  | { kind: 'path'; label: string; value: string; extra?: string }
  | { kind: 'json'; json: string }

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
      if (text.startsWith('+++') || text.startsWith('---') || text.startsWith('\\'))
        return { kind: 'meta', text }
      if (text.startsWith('@@')) return { kind: 'hunk', text }
      if (text.startsWith('+')) return { kind: 'add', text }
      if (text.startsWith('-')) return { kind: 'del', text }
      return { kind: 'context', text }
    })
}

/** The tool whose permission question is a plan approval request (SPEC §9.8; Claude Code's name). */
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
 * Turns a permission request's input into what the card shows: Bash → the command and the
 * directory it runs in (the agent's `cwd`); Edit/Write → the diff main computed (or the new content
 * as added lines when there is none); Read → the path; Glob/Grep → the pattern and where it
 * searches (its `path`, else the agent's directory); ExitPlanMode → its plan, line by line;
 * anything else → JSON.
 */
export function readableInput(p: Pick<PendingPermission, 'tool' | 'input' | 'diff' | 'cwd'>): ReadableInput {
  const o = typeof p.input === 'object' && p.input !== null ? (p.input as Record<string, unknown>) : {}
  const filePath = str(o, 'file_path') ?? str(o, 'path')
  switch (p.tool) {
    case 'Bash': {
      const command = str(o, 'command')
      if (command !== undefined) return { kind: 'command', command, description: str(o, 'description'), ...(p.cwd ? { cwd: p.cwd } : {}) }
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
  return { kind: 'json', json: rawJson(p.input) }
}
