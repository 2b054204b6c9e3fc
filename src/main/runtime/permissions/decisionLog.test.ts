import { mkdtemp, readFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PermissionDecisionLog, PermissionDecisionRecordSchema } from './decisionLog'

describe('permission decision log', () => {
  it('keeps every decision in order in memory and as JSON lines on disk', async () => {
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'swarmdesk-log-')), 'sub', 'permissions.jsonl')
    const log = new PermissionDecisionLog(file)
    for (let i = 0; i < 20; i++) {
      log.append({
        agentId: 'a1',
        tool: 'Bash',
        input: { command: `echo ${i}` },
        decision: i % 2 ? 'allow' : 'deny',
        by: i % 2 ? 'rule' : 'user'
      })
    }
    await log.flushed()
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => PermissionDecisionRecordSchema.parse(JSON.parse(l)))
    expect(lines.map((l) => (l.input as { command: string }).command)).toEqual(
      log.records.map((r) => (r.input as { command: string }).command)
    )
    expect(lines).toHaveLength(20)
    expect(lines[0]).toMatchObject({
      schemaVersion: 1,
      agentId: 'a1',
      decision: 'deny',
      by: 'user',
      time: expect.any(String)
    })
  })

  it('rejects a record that does not fit the schema', () => {
    const log = new PermissionDecisionLog()
    expect(() =>
      log.append({ agentId: 'a', tool: 'Bash', input: {}, decision: 'ask' as 'allow', by: 'rule' })
    ).toThrow()
    expect(log.records).toEqual([])
  })
})
