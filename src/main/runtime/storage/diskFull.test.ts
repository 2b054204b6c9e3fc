/**
 * A full disk or a failing device (issue 10 "Disk"), through the write seam of diskWrites.ts —
 * there is no small tmpfs to fill here, and tests run as root: every one of the runtime's record
 * writes fails with a clear error and leaves no partial inbox message, task file or transcript
 * line; once space is back, the next write works and nothing earlier was damaged.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createMailbox } from '../mailbox'
import { TaskStore } from '../tasks'
import { readTranscript, TranscriptWriteError, TranscriptWriter } from '../transcripts'
import { simulateWriteFaults } from '../locks/diskWrites'

let home: string
let endFaults: (() => void) | undefined
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'swarmdesk-diskfull-'))
})
afterEach(() => {
  endFaults?.()
  endFaults = undefined
  rmSync(home, { recursive: true, force: true })
})

/** Every file below `dir`, hidden ones included, as paths relative to it. */
const filesBelow = (dir: string): string[] =>
  (
    readdirSync(dir, { recursive: true, withFileTypes: true }) as Array<{
      isFile(): boolean
      parentPath: string
      name: string
    }>
  )
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort()

describe('a full disk', () => {
  it.each([
    ['at once', 0],
    ['part way through the message', 40]
  ])(
    'fails an inbox delivery %s with ENOSPC and leaves no message file, then delivers once there is room',
    async (_when, bytesLeft) => {
      for (const fsync of [false, true]) {
        const mailbox = createMailbox({ home, fsync })
        await mailbox.send('docs', 'bob', { from: 'alice', text: 'before' })
        const inbox = join(home, 'teams', 'docs', 'inboxes', 'bob')
        const before = filesBelow(inbox)
        endFaults = simulateWriteFaults({ matches: (p) => p.startsWith(inbox), bytesLeft })
        const failed = mailbox.send('docs', 'bob', { from: 'alice', text: 'x'.repeat(500) })
        await expect(failed).rejects.toMatchObject({ code: 'ENOSPC' })
        await expect(failed).rejects.toThrow(/no space left on device/)
        expect(filesBelow(inbox)).toEqual(before)
        endFaults()
        endFaults = undefined
        await mailbox.send('docs', 'bob', { from: 'alice', text: 'after' })
        expect((await mailbox.read('docs', 'bob')).messages.map((e) => e.message.text)).toEqual(['before', 'after'])
        rmSync(join(home, 'teams'), { recursive: true, force: true })
      }
    }
  )

  it('fails a task update or creation, keeping every task file as it was and leaving no temp file', async () => {
    const store = new TaskStore(home, 'docs')
    const first = await store.create({ subject: 'Write the index' })
    const dir = store.dir
    const snapshot = () =>
      Object.fromEntries(
        filesBelow(dir)
          .filter((f) => f !== '.lock')
          .map((f) => [f, readFileSync(join(dir, f), 'utf8')])
      )
    const before = snapshot()
    endFaults = simulateWriteFaults({ matches: (p) => p.startsWith(dir), bytesLeft: 25 })
    await expect(store.update(first.id, { status: 'in_progress', owner: 'alice' })).rejects.toMatchObject({
      code: 'ENOSPC'
    })
    await expect(store.create({ subject: 'Review it' })).rejects.toMatchObject({ code: 'ENOSPC' })
    expect(snapshot()).toEqual(before)
    endFaults()
    endFaults = undefined
    expect(store.list()).toMatchObject({ tasks: [{ id: first.id, status: 'pending' }], problems: [] })
    const second = await store.create({ subject: 'Review it' })
    expect(second.id).toBe(first.id + 1)
    expect((await store.update(first.id, { status: 'in_progress' })).task.status).toBe('in_progress')
  })

  it('fails a transcript append with a TranscriptWriteError and cuts the file back to its last whole line', () => {
    const path = join(home, 'transcript.jsonl')
    const writer = new TranscriptWriter(path, 'team-lead')
    writer.append('user', { role: 'user', content: [{ type: 'text', text: 'one' }] })
    const before = readFileSync(path, 'utf8')
    endFaults = simulateWriteFaults({ matches: (p) => p === path, bytesLeft: 60 })
    expect(() =>
      writer.append('assistant', { role: 'assistant', content: [{ type: 'text', text: 'y'.repeat(1_000) }] })
    ).toThrow(TranscriptWriteError)
    expect(() => writer.append('assistant', { role: 'assistant', content: [{ type: 'text', text: 'z' }] })).toThrow(
      /Cannot record to the transcript .*: the disk is full\. The transcript is unchanged/
    )
    expect(readFileSync(path, 'utf8')).toBe(before)
    endFaults()
    endFaults = undefined
    writer.append('assistant', { role: 'assistant', content: [{ type: 'text', text: 'two' }] })
    writer.close()
    const { entries, warnings } = readTranscript(path)
    expect(warnings).toEqual([])
    expect(entries.map((e) => (e.message as { content: Array<{ text: string }> }).content[0]!.text)).toEqual([
      'one',
      'two'
    ])
    // the chain skips the lines that were never written
    expect(entries[1]!.parentUuid).toBe(entries[0]!.uuid)
  })

  it('reports a device error (EIO) the same way', async () => {
    const mailbox = createMailbox({ home })
    endFaults = simulateWriteFaults({ matches: () => true, code: 'EIO', bytesLeft: 10 })
    await expect(mailbox.send('docs', 'bob', { from: 'alice', text: 'hello there' })).rejects.toMatchObject({
      code: 'EIO'
    })
    endFaults()
    endFaults = undefined
    expect((await mailbox.read('docs', 'bob')).messages).toEqual([])
  })
})
