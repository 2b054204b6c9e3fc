import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TaskStore } from '../../runtime/tasks'
import { UsageError } from '../io'
import { runCliText } from '../cli.testkit'
import { capture } from './cliCapture'
import { tasksCommand } from './tasks'

let home: string
beforeEach(() => (home = mkdtempSync(join(tmpdir(), 'swarmdesk-cli-tasks-'))))
afterEach(() => rmSync(home, { recursive: true, force: true }))
const run = (...argv: string[]) => capture(home, () => tasksCommand(argv))

describe('swarmdesk tasks', () => {
  it('creates, lists, claims, updates and deletes tasks with --json', async () => {
    expect(JSON.parse((await run('create', '--team', 't', '--subject', 'schema', '--json')).stdout)).toMatchObject({
      id: 1,
      status: 'pending'
    })
    await run('create', '--team', 't', '--subject', 'api', '--blocked-by', '1', '--json')
    expect(
      JSON.parse((await run('list', '--team', 't', '--json')).stdout).map((t: { id: number; blockedBy: number[] }) => [
        t.id,
        t.blockedBy
      ])
    ).toEqual([
      [1, []],
      [2, [1]]
    ])
    const blocked = await run('claim', '2', '--team', 't', '--agent', 'bob', '--json')
    expect(blocked.code).toBe(1)
    expect(JSON.parse(blocked.stdout)).toMatchObject({ ok: false, reason: 'blocked', taskIds: [1] })
    const updated = await run('update', '1', '--team', 't', '--status', 'completed', '--owner', 'alice', '--json')
    expect(JSON.parse(updated.stdout)).toMatchObject({
      task: { status: 'completed', owner: 'alice' },
      assignTo: 'alice'
    })
    expect((await run('claim', '2', '--team', 't', '--agent', 'bob')).code).toBe(0)
    expect(await run('delete', '1', '--team', 't')).toMatchObject({ code: 0, stdout: 'Deleted task #1.\n' })
    expect(JSON.parse((await run('list', '--team', 't', '--json')).stdout)).toMatchObject([
      { id: 2, owner: 'bob', blockedBy: [] }
    ])
  })

  it('prints a readable table and a refused claim’s reason with exit 1', async () => {
    await run('create', '--team', 't', '--subject', 'write the parser')
    await run('create', '--team', 't', '--subject', 'test it', '--blocked-by', '1')
    await run('claim', '1', '--team', 't', '--agent', 'alice')
    const table = (await run('list', '--team', 't')).stdout.split('\n')
    expect(table[0]).toMatch(/^ID\s+STATUS\s+OWNER\s+SUBJECT\s+BLOCKED BY$/)
    expect(table[1]).toMatch(/^#1\s+in_progress\s+alice\s+write the parser\s+-$/)
    expect(table[2]).toMatch(/^#2\s+pending\s+-\s+test it\s+#1$/)
    expect(await run('claim', '1', '--team', 't', '--agent', 'bob')).toMatchObject({
      code: 1,
      stdout: 'Cannot claim task #1: already_claimed (owner: alice, in_progress).\n'
    })
  })

  it('names skipped invalid task files on stderr, and refuses to update one (exit 1)', async () => {
    await run('create', '--team', 't', '--subject', 'ok')
    writeFileSync(join(home, 'tasks/t/2.json'), 'not json')
    const r = await run('list', '--team', 't', '--json')
    expect(JSON.parse(r.stdout)).toHaveLength(1)
    expect(r.stderr).toContain(join(home, 'tasks/t/2.json'))
    const update = await run('update', '2', '--team', 't', '--status', 'completed')
    expect(update.code).toBe(1)
    expect(update.stderr).toContain(join(home, 'tasks/t/2.json'))
  })

  it('treats bad usage and unknown tasks as usage errors (exit 2)', async () => {
    for (const argv of [
      ['list'],
      ['create', '--team', 't'],
      ['claim', 'x', '--team', 't', '--agent', 'a'],
      ['update', '1', '--team', 't', '--status', 'done'],
      ['update', '9', '--team', 't', '--status', 'completed'],
      ['create', '--team', 't', '--subject', 's', '--blocked-by', '7'],
      ['list', '--team', '../x'],
      ['frobnicate']
    ]) {
      await expect(run(...argv), argv.join(' ')).rejects.toBeInstanceOf(UsageError)
    }
  })

  it('links tasks with update --add-blocked-by / --add-blocks and refuses a cycle by name with exit 1 (bin/swarmdesk)', async () => {
    const cli = (...argv: string[]) => runCliText(home, ['tasks', ...argv])
    const store = new TaskStore(home, 't')
    for (const subject of ['a', 'b', 'c', 'd']) await store.create({ subject })
    expect(await cli('update', '3', '--team', 't', '--add-blocked-by', '1,2')).toMatchObject({
      code: 0,
      stdout: 'Updated task #3: pending, no owner, blocked by #1,#2.\n'
    })
    const blocks = await cli('update', '3', '--team', 't', '--add-blocks', '4', '--json')
    expect(blocks.code).toBe(0)
    expect(JSON.parse(blocks.stdout)).toMatchObject({ task: { id: 3, blocks: [4], blockedBy: [1, 2] } })
    const cycle = await cli('update', '1', '--team', 't', '--add-blocked-by', '4')
    expect(cycle.code).toBe(1)
    expect(cycle.stdout).toBe('')
    expect(cycle.stderr).toContain(
      'swarmdesk tasks update: Refused: this dependency would close the cycle #1 → #4 → #3 → #1'
    )
    expect((await cli('update', '4', '--team', 't', '--add-blocks', '2')).stderr).toContain('#4 → #3 → #2 → #4')
    expect(store.list().tasks.map((t) => [t.id, t.blocks, t.blockedBy])).toEqual([
      [1, [3], []],
      [2, [3], []],
      [3, [4], [1, 2]],
      [4, [], [3]]
    ])
    const usage = await cli('update', '1', '--team', 't', '--add-blocks', 'x')
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain("--add-blocks must be a positive integer, got 'x'")
    expect((await cli('update', '1', '--team', 't')).stderr).toContain('--add-blocked-by 1,2')
  }, 180_000)
})
