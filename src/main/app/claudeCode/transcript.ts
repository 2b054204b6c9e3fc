import { promises as fs } from 'node:fs'

// A Claude Code teammate's transcript (`projects/<slug>/<session>/subagents/agent-….jsonl`) as the
// text of its pane (docs/claude-code-teams.md): what it was told, what it
// said, each tool call and the first lines of each result. Torn or foreign lines are skipped.

const MAX_RESULT_LINES = 4

function clip(text: string, lines = MAX_RESULT_LINES): string {
  const all = text.replace(/\r/g, '').split('\n')
  return all.length > lines ? `${all.slice(0, lines).join('\n')}\n… (${all.length - lines} more lines)` : text
}

function blockText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((b: { type?: string; text?: string }) => (b && b.type === 'text' && typeof b.text === 'string' ? b.text : ''))
    .filter(Boolean)
    .join('\n')
}

/** The argument a tool call is recognised by (a path, a command, a subject), else its input as compact JSON. */
function callArgument(input: Record<string, unknown> | undefined): string {
  if (!input) return ''
  for (const k of ['file_path', 'path', 'command', 'pattern', 'subject', 'taskId', 'to', 'description']) {
    const v = input[k]
    if (typeof v === 'string' && v.trim()) return v.trim().split('\n', 1)[0]!.slice(0, 160)
  }
  return JSON.stringify(input).slice(0, 160)
}

/** One transcript line as pane text, or '' for lines a person need not see (metadata, titles). */
export function renderLine(line: string): string {
  let entry: { type?: string; message?: { content?: unknown } }
  try {
    entry = JSON.parse(line) as typeof entry
  } catch {
    return ''
  }
  const content = entry?.message?.content
  if (entry.type === 'user') {
    if (Array.isArray(content) && content.some((b: { type?: string }) => b?.type === 'tool_result')) {
      return content
        .filter((b: { type?: string }) => b?.type === 'tool_result')
        .map(
          (b: { content?: unknown; is_error?: boolean }) =>
            `  ⎿ ${b.is_error ? 'error: ' : ''}${clip(blockText(b.content))}`
        )
        .join('\n')
    }
    const text = blockText(content)
    return text ? `> ${text}` : ''
  }
  if (entry.type === 'assistant' && Array.isArray(content)) {
    return content
      .map((b: { type?: string; text?: string; name?: string; input?: Record<string, unknown> }) => {
        if (b?.type === 'text' && b.text) return b.text
        if (b?.type === 'tool_use') return `● ${b.name ?? 'tool'}(${callArgument(b.input)})`
        return ''
      })
      .filter(Boolean)
      .join('\n')
  }
  return ''
}

/** The whole transcript at `path` as pane text, one rendered entry per paragraph. @throws the read error (ENOENT…). */
export async function renderTranscript(path: string): Promise<string> {
  const text = await fs.readFile(path, 'utf8')
  return text
    .split('\n')
    .map(renderLine)
    .filter((l) => l !== '')
    .join('\n')
}
