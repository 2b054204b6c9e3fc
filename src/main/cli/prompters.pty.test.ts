import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as pty from 'node-pty'
import { describe, expect, it } from 'vitest'
import { SWARMDESK_BIN, useTempWorkspace } from './cli.testkit'

const dirs = useTempWorkspace()

/** The terminal's text so far, and a way to wait for some of it. */
function terminal(child: pty.IPty): {
  text: () => string
  waitFor: (needle: string, from?: number) => Promise<number>
} {
  let text = ''
  const waiters = new Set<() => void>()
  child.onData((d) => {
    text += d
    for (const w of [...waiters]) w()
  })
  return {
    text: () => text,
    waitFor: (needle, from = 0) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for ${JSON.stringify(needle)}; the terminal shows:\n${text}`)),
          25_000
        )
        const check = (): void => {
          const at = text.indexOf(needle, from)
          if (at === -1) return
          clearTimeout(timer)
          waiters.delete(check)
          resolve(at)
        }
        waiters.add(check)
        check()
      })
  }
}

describe('the terminal permission prompt (swarmdesk run on a real pty)', () => {
  it('shows an edit as a coloured diff and a command with where it runs, each before its question', async () => {
    writeFileSync(join(dirs.work, 'a.txt'), 'first\nold\nlast\n')
    const scenario = join(dirs.home, 's.yaml')
    writeFileSync(
      scenario,
      [
        'agents:',
        '  team-lead:',
        '    - tools: [{ name: Read, input: { file_path: "a.txt" } }]',
        '    - tools: [{ name: Edit, input: { file_path: "a.txt", old_string: "old", new_string: "new" } }]',
        '    - tools: [{ name: Bash, input: { command: "touch made.txt" } }]',
        '    - text: "done: {{last_tool_result}}"',
        ''
      ].join('\n')
    )
    const env = { ...process.env, SWARMDESK_HOME: dirs.home, ANTHROPIC_API_KEY: '', TERM: 'xterm-256color' } as Record<
      string,
      string
    >
    delete env.NO_COLOR
    delete env.FORCE_COLOR
    const child = pty.spawn(
      process.execPath,
      [SWARMDESK_BIN, 'run', '--cwd', dirs.work, '--scenario', scenario, 'edit a.txt'],
      { cols: 200, rows: 50, cwd: dirs.work, env }
    )
    const exited = new Promise<number>((resolve) => child.onExit(({ exitCode }) => resolve(exitCode)))
    const term = terminal(child)
    try {
      const editQuestion = await term.waitFor('Allow team-lead to use Edit?')
      const shown = term.text().slice(0, editQuestion)
      const header = shown.lastIndexOf('team-lead asks to use Edit')
      expect(header, shown).toBeGreaterThan(-1)
      const view = shown.slice(header)
      // the diff, on its own lines, red for what goes and green for what comes
      expect(view).toContain(`a.txt  (in ${dirs.work})`)
      expect(view).toMatch(/\r?\n {2}@@ -1,3 \+1,3 @@|\x1b\[36m@@ -1,3 \+1,3 @@/)
      expect(view).toContain('\x1b[31m-old\x1b[39m')
      expect(view).toContain('\x1b[32m+new\x1b[39m')
      expect(view).toMatch(/ {2}first\r?\n/)
      child.write('y\r')

      const bashQuestion = await term.waitFor('Allow team-lead to use Bash?', editQuestion + 1)
      const bashView = term
        .text()
        .slice(term.text().lastIndexOf('team-lead asks to use Bash', bashQuestion), bashQuestion)
      expect(bashView).toMatch(/\r?\n {2}\$ touch made\.txt\r?\n {2}in /)
      expect(bashView).toContain(`in ${dirs.work}`)
      child.write('n\r')
      await term.waitFor('Reason (optional', bashQuestion)
      child.write('not now\r')
      expect(await exited).toBe(0)
    } finally {
      child.kill()
    }
    expect(readFileSync(join(dirs.work, 'a.txt'), 'utf8')).toBe('first\nnew\nlast\n')
    expect(existsSync(join(dirs.work, 'made.txt'))).toBe(false)
    expect(term.text()).toContain('not now')
  }, 60_000)
})
