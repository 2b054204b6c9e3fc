import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCliText, useTempWorkspace } from './cli.testkit'

// An option that takes one value, given twice, is bad usage (docs/events.md#event-stream-and-command-line):
// util.parseArgs would keep the last and drop the others without a word.

const ws = useTempWorkspace()
const swarmdesk = (...argv: string[]) => runCliText(argv, { SWARMDESK_HOME: ws.home, ANTHROPIC_API_KEY: 'k' })
const twice = (option: string) =>
  new RegExp(`Option '--${option}' was given more than once; it takes one value, give it once`)

describe('a single-valued option given twice', () => {
  it('is exit 2 naming it, for every command and before anything is done', async () => {
    const deleted = await swarmdesk('team', 'delete', '--team', 'a', '--team', 'b')
    expect(deleted).toMatchObject({ code: 2, stdout: '' })
    expect(deleted.stderr).toMatch(/^swarmdesk team delete: /)
    expect(deleted.stderr).toMatch(twice('team'))

    const run = await swarmdesk('run', '--cwd', ws.work, '--cwd', ws.home, 'Hello')
    expect(run).toMatchObject({ code: 2, stderr: expect.stringMatching(twice('cwd')) })
    expect(existsSync(join(ws.home, 'sessions')) ? readdirSync(join(ws.home, 'sessions')) : []).toEqual([])

    const check = await swarmdesk('permissions', 'check', '--cwd', ws.work, '--tool', 'Read', '--tool', 'Edit')
    expect(check).toMatchObject({ code: 2, stderr: expect.stringMatching(twice('tool')) })

    const server = await swarmdesk('scripted-server', '--scenario', 'a.yaml', '--port', '1', '--port', '2')
    expect(server).toMatchObject({ code: 2, stderr: expect.stringMatching(twice('port')) })
  })

  it('is fine when the option may repeat, or is a switch', async () => {
    for (const n of [1, 2]) writeFileSync(join(ws.home, `none-${n}.json`), '{}')
    const check = await swarmdesk(
      'permissions',
      'check',
      '--cwd',
      ws.work,
      '--json',
      '--json',
      '--settings',
      join(ws.home, 'none-1.json'),
      '--settings',
      join(ws.home, 'none-2.json'),
      '--tool',
      'Read',
      '--input',
      JSON.stringify({ file_path: join(ws.work, 'a.txt') })
    )
    expect(check).toMatchObject({ code: 0, stderr: '' })
  })
})
