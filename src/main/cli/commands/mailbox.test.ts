import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMailbox } from '../../runtime/mailbox'
import { tempHome } from '../../runtime/mailbox/fixtures.testkit'
import { UsageError } from '../io'
import { mailboxCommand } from './mailbox'

const REPO = resolve(__dirname, '../../../..')

/** Runs the command function, capturing stdout. */
async function run(argv: string[]): Promise<{ code: number; out: string }> {
  const chunks: string[] = []
  const spy = vi
    .spyOn(process.stdout, 'write')
    .mockImplementation((c: string | Uint8Array) => (chunks.push(String(c)), true))
  try {
    return { code: await mailboxCommand(argv), out: chunks.join('') }
  } finally {
    spy.mockRestore()
  }
}

describe('swarmdesk mailbox (command function)', () => {
  let home: string
  let cleanup: () => void
  beforeEach(() => {
    ;({ home, cleanup } = tempHome())
    vi.stubEnv('SWARMDESK_HOME', home)
  })
  afterEach(() => {
    vi.unstubAllEnvs()
    cleanup()
  })

  it('sends plain text (a sentence in reply) and structured JSON (a JSON receipt) with no team config, and reads them back as JSON', async () => {
    const plain = await run([
      'send',
      '--team',
      'demo',
      '--to',
      'alice',
      '--from',
      'team-lead',
      '--text',
      'hello',
      '--summary',
      'greeting'
    ])
    expect(plain.code).toBe(0)
    const said = /^Sent a message from team-lead to alice in team demo \((.+)\)\.\n$/.exec(plain.out)
    expect(said, plain.out).not.toBeNull()
    const sent = { id: said![1] }
    const structured = await run([
      'send',
      '--team',
      'demo',
      '--to',
      'alice',
      '--from',
      'team-lead',
      '--json',
      '{"type":"shutdown_request","requestId":"r1","reason":"done"}'
    ])
    expect(JSON.parse(structured.out).kind).toBe('shutdown_request')

    const { out } = await run(['read', '--team', 'demo', '--agent', 'alice', '--json'])
    const inbox = JSON.parse(out)
    expect(inbox.problems).toEqual([])
    expect(inbox.messages.map((m: { text: string; read: boolean; kind: string }) => [m.kind, m.read])).toEqual([
      ['plain', false],
      ['shutdown_request', false]
    ])
    expect(inbox.messages[0].id).toBe(sent.id)
  })

  it('changes nothing on read; --mark-read marks what it printed; --unread shows only unread', async () => {
    await run(['send', '--team', 'demo', '--to', 'bob', '--from', 'x', '--text', 'one'])
    expect((await run(['read', '--team', 'demo', '--agent', 'bob'])).out).toMatch(/NEW .* x → bob {2}plain\n {5}one/)
    expect((await createMailbox({ home }).read('demo', 'bob', { unreadOnly: true })).messages).toHaveLength(1)
    await run(['read', '--team', 'demo', '--agent', 'bob', '--mark-read'])
    expect((await run(['read', '--team', 'demo', '--agent', 'bob', '--unread'])).out).toBe(
      'No unread messages for bob in team demo.\n'
    )
    const all = JSON.parse((await run(['read', '--team', 'demo', '--agent', 'bob', '--json'])).out)
    expect(all.messages.map((m: { read: boolean }) => m.read)).toEqual([true])
  })

  it('refuses bad usage with a message naming the flag', async () => {
    await expect(run(['send', '--team', 'demo', '--from', 'x', '--text', 't'])).rejects.toThrow(/--to is required/)
    await expect(run(['send', '--team', 'demo', '--to', 'Bad Name', '--from', 'x', '--text', 't'])).rejects.toThrow(
      /--to: to 'Bad Name' must be/
    )
    await expect(run(['send', '--team', '../up', '--to', 'a', '--from', 'x', '--text', 't'])).rejects.toThrow(/--team/)
    await expect(
      run(['send', '--team', 'demo', '--to', 'a', '--from', 'x', '--text', 't', '--json', '{}'])
    ).rejects.toThrow(/exactly one of --text or --json/)
    await expect(
      run(['send', '--team', 'demo', '--to', 'a', '--from', 'x', '--json', '{"type":"shutdown_request"}'])
    ).rejects.toThrow(/--json is not a valid shutdown_request: requestId/)
    await expect(run(['read', '--team', 'demo'])).rejects.toThrow(/--agent is required/)
    await expect(run(['read', '--team', 'demo', '--agent', 'a', '--bogus'])).rejects.toBeInstanceOf(UsageError)
    await expect(run(['peek'])).rejects.toThrow(/unknown subcommand 'peek'/)
  })
})

const wired = readFileSync(join(REPO, 'src/main/cli/index.ts'), 'utf8').includes('mailboxCommand')

describe.skipIf(!wired)('swarmdesk mailbox (through bin/swarmdesk)', () => {
  it('sends from one process and reads from another, exit 0; bad usage exits 2 naming the flag', async () => {
    const { home, cleanup } = tempHome()
    const exec = promisify(execFile)
    const env = { ...process.env, SWARMDESK_HOME: home }
    const bin = join(REPO, 'bin', 'swarmdesk')
    const sent = {
      id: /\((.+)\)\.$/m.exec(
        (
          await exec(
            process.execPath,
            [bin, 'mailbox', 'send', '--team', 'demo', '--to', 'alice', '--from', 'cli', '--text', 'from a terminal'],
            { env }
          )
        ).stdout
      )![1]
    }
    const read = JSON.parse(
      (
        await exec(
          process.execPath,
          [bin, 'mailbox', 'read', '--team', 'demo', '--agent', 'alice', '--json', '--mark-read'],
          { env }
        )
      ).stdout
    )
    expect(read.messages).toMatchObject([{ id: sent.id, text: 'from a terminal', read: false }])
    expect((await createMailbox({ home }).read('demo', 'alice', { unreadOnly: true })).messages).toEqual([])
    const bad = await exec(
      process.execPath,
      [bin, 'mailbox', 'send', '--team', 'demo', '--from', 'cli', '--text', 't'],
      { env }
    ).catch((e: { code: number; stderr: string }) => e)
    expect(bad).toMatchObject({ code: 2 })
    expect((bad as { stderr: string }).stderr).toMatch(/--to is required/)
    cleanup()
  })
})
