import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startNatsServer, type NatsServer } from '../../runtime/teamStore/natsServer.testkit'
import { capture } from './cliCapture'
import { mailboxCommand } from './mailbox'
import { tasksCommand } from './tasks'
import { teamCommand } from './team'

let home: string
let server: NatsServer
let url: string
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'swarmdesk-cli-nats-'))
  server = await startNatsServer({ extraArgs: ['--auth', 'cli-secret'] })
  url = `nats://cli-secret@127.0.0.1:${server.port}`
}, 30_000)
afterAll(async () => {
  await server.stop()
  rmSync(home, { recursive: true, force: true })
})

describe('--team-transport on the mailbox, tasks and team commands', () => {
  it('runs tasks and mailbox commands on JetStream, writing nothing under the data directory', async () => {
    const tasks = (...argv: string[]) => capture(home, () => tasksCommand([...argv, '--team-transport', url]))
    expect(JSON.parse((await tasks('create', '--team', 'cli', '--subject', 'remote', '--json')).stdout)).toMatchObject({
      id: 1
    })
    expect((await tasks('claim', '1', '--team', 'cli', '--agent', 'bob')).code).toBe(0)
    const refused = await tasks('claim', '1', '--team', 'cli', '--agent', 'eve', '--json')
    expect(refused.code).toBe(1)
    expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, reason: 'already_claimed' })
    expect(JSON.parse((await tasks('list', '--team', 'cli', '--json')).stdout)).toMatchObject([{ id: 1, owner: 'bob' }])

    const mail = (...argv: string[]) => capture(home, () => mailboxCommand([...argv, '--team-transport', url]))
    const sent = await mail('send', '--team', 'cli', '--to', 'bob', '--from', 'team-lead', '--text', 'over nats')
    expect(sent.stdout).toMatch(/^Sent a message from team-lead to bob in team cli/)
    const read = await mail('read', '--team', 'cli', '--agent', 'bob', '--mark-read', '--json')
    expect(JSON.parse(read.stdout).messages).toMatchObject([{ text: 'over nats', read: false }])
    expect(
      JSON.parse((await mail('read', '--team', 'cli', '--agent', 'bob', '--unread', '--json')).stdout).messages
    ).toEqual([])
    expect(existsSync(join(home, 'teams'))).toBe(false)
    expect(existsSync(join(home, 'tasks'))).toBe(false)
    expect(`${sent.stderr}${read.stderr}`).not.toContain('cli-secret')
  })

  it('stops with exit 1 and the reason when the server cannot be used, never printing the credentials', async () => {
    const bad = `nats://wrong-secret@127.0.0.1:${server.port}`
    const r = await capture(home, () => tasksCommand(['list', '--team', 'cli', '--team-transport', bad]))
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/refused the credentials/)
    expect(r.stderr).not.toContain('wrong-secret')
    const show = await capture(home, () => teamCommand(['show', '--team', 'cli', '--team-transport', bad]))
    expect(show.code).toBe(1)
    await expect(
      capture(home, () => mailboxCommand(['read', '--team', 'cli', '--agent', 'a', '--team-transport', 'http://x']))
    ).rejects.toThrow(/nats:\/\//)
  })
})
