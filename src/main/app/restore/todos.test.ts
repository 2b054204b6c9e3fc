import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseRuntimeEvent, type EventOf } from '../../../shared/events'
import type { WorkspaceSnapshot } from '../../../shared/ipc'
import { WorkspaceService } from '../service'
import { restorePaths } from './stateFile'

// An agent's todo list in the app (docs/tools.md#todowrite, docs/ui.md#restore): pushed as
// `todos_updated`, in the snapshot's agent view, and after a restart read back from the transcript.

let home: string
let work: string
let service: WorkspaceService | undefined

beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-todos-home-')))
  work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-todos-work-')))
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
})
afterEach(async () => {
  await service?.dispose()
  service = undefined
  rmSync(home, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
})

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = probe()
    if (v !== undefined && v !== false) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

const SCENARIO = `agents:
  team-lead:
    - when: "plan it"
      tools: [ { name: TodoWrite, input: { todos: [ { content: "Survey", status: completed, activeForm: "Surveying" }, { content: "Report", status: in_progress, activeForm: "Reporting" } ] } } ]
    - tools: [ { name: TeamCreate, input: { team_name: ops } } ]
    - tools: [ { name: Agent, input: { name: alice, backend: worker, description: "writer", prompt: "Plan the notes." } } ]
    - text: "Planned."
${'    - { text: "Noted." }\n'.repeat(6)}
  alice:
    - tools: [ { name: TodoWrite, input: { todos: [ { content: "Write the notes", status: in_progress, activeForm: "Writing the notes" } ] } } ]
    - text: "alice planned."
${'    - { text: "Noted." }\n'.repeat(6)}
`

async function open(file: string): Promise<WorkspaceService> {
  service = await WorkspaceService.start({ cwd: work, home, scenario: file, env: {}, mode: 'bypassPermissions' })
  return service
}

const snapshot = async (s: WorkspaceService) => (await s.handle('workspace.snapshot', {})) as WorkspaceSnapshot
const todosOf = (snap: WorkspaceSnapshot, agentId: string) =>
  snap.agents.find((a) => a.agentId === agentId)?.todos?.map((t) => `${t.content}:${t.status}`)

describe("an agent's todo list in the app", () => {
  it(
    'is pushed as todos_updated, shown in the snapshot, and read back from the transcripts after a restart',
    { timeout: 120_000 },
    async () => {
      const file = join(home, 's.yaml')
      writeFileSync(file, SCENARIO)
      const first = await open(file)
      const pushed: EventOf<'todos_updated'>[] = []
      const states: string[] = []
      first.onPush((channel, payload) => {
        const e = channel === 'runtime.event' ? parseRuntimeEvent(payload) : undefined
        if (e?.type === 'todos_updated') pushed.push(e)
        if (e?.type === 'agent_state' && e.agentId === 'alice@ops') states.push(e.state)
      })
      const sessionId = (await snapshot(first)).sessionId
      await first.handle('leader.prompt', { text: 'plan it' })
      await first.whenIdle()
      await until('alice to write her list', () => pushed.some((e) => e.agentId === 'alice@ops'))
      expect(pushed.map((e) => [e.agentId, e.todos.length])).toEqual([
        ['team-lead', 2],
        ['alice@ops', 1]
      ])
      const live = await snapshot(first)
      expect(todosOf(live, 'team-lead')).toEqual(['Survey:completed', 'Report:in_progress'])
      expect(todosOf(live, 'alice@ops')).toEqual(['Write the notes:in_progress'])
      await until('alice to go idle', () => states.at(-1) === 'idle')
      await first.dispose()
      service = undefined

      // the restore file is not the list's record: without the lists in it, they come back from the transcripts
      const paths = restorePaths(home, work, sessionId)
      const saved = JSON.parse(readFileSync(paths.state, 'utf8')) as { agents: Array<{ todos?: unknown }> }
      expect(saved.agents.some((a) => a.todos !== undefined)).toBe(true)
      for (const a of saved.agents) delete a.todos
      writeFileSync(paths.state, JSON.stringify(saved))

      const second = await open(file)
      const reopened = await snapshot(second)
      expect(reopened.sessionId).toBe(sessionId)
      expect(todosOf(reopened, 'team-lead')).toEqual(['Survey:completed', 'Report:in_progress'])
      expect(todosOf(reopened, 'alice@ops')).toEqual(['Write the notes:in_progress'])
      expect(reopened.agents.find((a) => a.agentId === 'team-lead')!.todos![1]).toEqual({
        content: 'Report',
        status: 'in_progress',
        activeForm: 'Reporting'
      })
    }
  )
})
