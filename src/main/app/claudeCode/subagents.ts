import { promises as fs } from 'node:fs'
import { CLAUDE_LEAD_NAME } from './protocol'
import type { TeamSnapshot } from './scan'

// Which agent started each subagent of a Claude Code session (docs/claude-code-teams.md#subagents):
// a subagent's `.meta.json` names the Agent call that started it (`toolUseId`), and that call is in
// the transcript of the agent that made it — the lead session's own, a teammate's, or another
// subagent's.

/** Who started a subagent: a member (`team-lead` for the lead session itself), or another subagent (its agent id). */
export type SubagentParent = { member: string } | { agentId: string }

/** A transcript read so far, and whose it is. */
interface Followed {
  offset: number
  parent: SubagentParent
}

/** The Agent (or older Task) calls of one transcript line, by tool use id; none for a line that does not parse. */
function agentCalls(line: string): string[] {
  if (!line.includes('"tool_use"')) return []
  try {
    const entry = JSON.parse(line) as { message?: { content?: unknown } }
    const content = entry?.message?.content
    if (!Array.isArray(content)) return []
    return content
      .filter(
        (b: { type?: string; name?: string; id?: unknown }) =>
          b?.type === 'tool_use' && (b.name === 'Agent' || b.name === 'Task') && typeof b.id === 'string'
      )
      .map((b: { id: string }) => b.id)
  } catch {
    return []
  }
}

/**
 * Follows the transcripts of one team's session and learns, from the Agent calls written there,
 * which agent made each call. Transcripts are append-only JSONL, so each is read from where the
 * last look stopped, up to its last complete line; a line torn mid-write is read again next time.
 */
export class SubagentParents {
  private readonly followed = new Map<string, Followed>()
  /** Tool use id of each Agent call seen → the agent that made it. */
  private readonly callers = new Map<string, SubagentParent>()

  /**
   * Reads what the snapshot's transcripts gained since the last call.
   * @returns the parent of each subagent of `s` whose Agent call has been seen, by agent id.
   */
  async resolve(s: TeamSnapshot): Promise<Map<string, SubagentParent>> {
    const sources: Array<[string, SubagentParent]> = [
      ...s.leadTranscripts.map((p): [string, SubagentParent] => [p, { member: CLAUDE_LEAD_NAME }]),
      ...s.teammateFiles.map((f): [string, SubagentParent] => [f.path, { member: f.name }]),
      ...s.subagents.map((a): [string, SubagentParent] => [a.path, { agentId: a.agentId }])
    ]
    const wanted = s.subagents.some((a) => a.toolUseId !== undefined && !this.callers.has(a.toolUseId))
    if (wanted) for (const [path, parent] of sources) await this.follow(path, parent)
    const out = new Map<string, SubagentParent>()
    for (const a of s.subagents) {
      const parent = a.toolUseId !== undefined ? this.callers.get(a.toolUseId) : undefined
      if (parent) out.set(a.agentId, parent)
    }
    return out
  }

  private async follow(path: string, parent: SubagentParent): Promise<void> {
    const known = this.followed.get(path) ?? { offset: 0, parent }
    this.followed.set(path, known)
    let chunk: Buffer
    try {
      const handle = await fs.open(path, 'r')
      try {
        const { size } = await handle.stat()
        if (size <= known.offset) return
        chunk = Buffer.alloc(size - known.offset)
        await handle.read(chunk, 0, chunk.length, known.offset)
      } finally {
        await handle.close()
      }
    } catch {
      return // gone, or not there yet: the next look tries again
    }
    const end = chunk.lastIndexOf(0x0a)
    if (end < 0) return
    known.offset += end + 1
    for (const line of chunk.subarray(0, end).toString('utf8').split('\n'))
      for (const id of agentCalls(line)) this.callers.set(id, known.parent)
  }
}
