/**
 * A team's allowed paths with real teammates (docs/teams.md#allowed-paths): a worker and a
 * process teammate each Write a file in a folder outside the workspace. Without an allowed path
 * each asks (the question reaches the leader's prompter; refused, nothing is written); once
 * `editAllowedPaths` adds the folder to the team config, the same Write goes through without a
 * question and the file is on disk.
 *
 * All real: a Session with a team, the scripted model over HTTP, a worker thread, a
 * `swarmdesk teammate` child process, the files team store under the session's home.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { PermissionPromptRequest } from '../../../shared/permissions'
import { createFileTeamStore } from '../teamStore'
import { editAllowedPaths } from '../teammates'
import { bothTeammateBackends } from './teammateBackends.testkit'
import { openTestSession } from './session.testkit'

const noted = Array.from({ length: 8 }, () => ({ text: 'Noted.' }))
const write = (file: string, content: string) => ({ name: 'Write', input: { file_path: file, content } })

/** Waits until `check` is true, up to 90 s (the machine may be loaded), naming `what` on failure. */
async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 90_000
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe("a team's allowed paths with real teammates", () => {
  it('a worker and a process teammate ask outside the workspace, then write there without asking once allowed', async () => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-allowed-out-')))
    const asked: PermissionPromptRequest[] = []
    // the person refuses: a question is asked, and nothing is written
    const prompter = {
      prompt: async (request: PermissionPromptRequest) => {
        asked.push(request)
        return { decision: 'deny' as const, by: 'user' as const }
      }
    }
    const backends = bothTeammateBackends(prompter, () => h.server.url)
    const file = (name: string) => join(outside, `${name}.txt`)
    const teammate = (name: string) => [
      { tools: [write(file(name), `by ${name}\n`)] },
      { when: 'Write it again', tools: [write(file(name), `by ${name}\n`)] },
      ...noted
    ]
    const h = await openTestSession({
      prompter,
      scenario: {
        agents: {
          'team-lead': [
            { tools: [{ name: 'TeamCreate', input: { team_name: 'crew' } }] },
            {
              tools: [
                { name: 'Agent', input: { name: 'wally', backend: 'worker', description: 'w', prompt: 'Start.' } },
                { name: 'Agent', input: { name: 'pat', backend: 'process', description: 'p', prompt: 'Start.' } }
              ]
            },
            {
              when: 'Ask them again',
              tools: [
                { name: 'SendMessage', input: { to: 'wally', message: 'Write it again.' } },
                { name: 'SendMessage', input: { to: 'pat', message: 'Write it again.' } }
              ]
            },
            ...noted
          ],
          wally: teammate('wally'),
          pat: teammate('pat')
        }
      },
      teammates: backends.teammates
    })
    const store = createFileTeamStore(h.home)
    try {
      await h.session.prompt('Start the crew.')
      await until('both questions', () => asked.filter((a) => a.tool === 'Write').length >= 2)
      expect(asked.map((a) => [a.agentName, a.tool, (a.input as { file_path: string }).file_path]).sort()).toEqual([
        ['pat', 'Write', file('pat')],
        ['wally', 'Write', file('wally')]
      ])
      expect(asked.every((a) => /outside the workspace/.test(a.reason ?? ''))).toBe(true)
      expect(existsSync(file('wally')) || existsSync(file('pat'))).toBe(false)

      expect(await editAllowedPaths(store, 'crew', { add: outside })).toEqual([outside])
      // every teammate hears of it from its config watch, long before the leader's next message
      await h.session.prompt('Ask them again.')
      await until('both files', () => existsSync(file('wally')) && existsSync(file('pat')))
      expect(readFileSync(file('wally'), 'utf8')).toBe('by wally\n')
      expect(readFileSync(file('pat'), 'utf8')).toBe('by pat\n')
      expect(asked).toHaveLength(2)
    } finally {
      await store.close()
      await backends.registry()?.dispose()
      await h.close()
      rmSync(outside, { recursive: true, force: true })
    }
  }, 180_000)
})
