/**
 * Git from an isolated agent under the sandbox (docs/sandbox.md#git): a subagent with
 * `isolation: "worktree"` commits on its branch from its sandboxed Bash, though the repository's
 * git dir is outside its worktree; the repository's hooks stay out of its reach. The real Bash tool
 * in a leader session, the scripted model over HTTP, real PTYs, real git, /usr/bin/bwrap.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { EventOf } from '../../../shared/events'
import { sandboxAvailability } from '../sandbox'
import { openTestSession } from './session.testkit'

describe.runIf(sandboxAvailability().ok)('an isolated agent under the sandbox', () => {
  it('commits in its worktree; the repository hooks stay read-only', async () => {
    const work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-sandbox-wt-work-')))
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-sandbox-wt-home-')))
    const git = (...args: string[]): string =>
      execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@a.invalid', ...args], {
        cwd: work,
        encoding: 'utf8'
      }).trim()
    git('init', '-q', '-b', 'main')
    writeFileSync(join(work, 'a.txt'), 'a\n')
    git('add', 'a.txt')
    git('commit', '-q', '-m', 'init')
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ sandbox: { enabled: true } }))
    const hook = join(work, '.git', 'hooks', 'post-commit')
    const h = await openTestSession({
      work,
      home,
      scenario: {
        agents: {
          'team-lead': [
            {
              tools: [{ name: 'Agent', input: { description: 'iso', prompt: 'commit', isolation: 'worktree' } }]
            },
            { text: 'Done.' }
          ],
          iso: [
            {
              tools: [
                {
                  name: 'Bash',
                  input: {
                    command:
                      'echo b > b.txt && git add b.txt && git -c user.name=a -c user.email=a@a.invalid commit -q -m "from the sandbox" && git log -1 --format=%s'
                  }
                },
                { name: 'Bash', input: { command: `echo 'touch /tmp/escaped' > ${hook}` } }
              ]
            },
            { text: 'Committed.' }
          ]
        }
      }
    })
    try {
      await h.session.prompt('go')
      const results = h.events
        .filter((e): e is EventOf<'tool_result'> => e.type === 'tool_result' && e.agentName === 'iso')
        .map((e) => e.output)
      expect(results[0]).toContain('from the sandbox')
      expect(results[0]).not.toMatch(/Read-only file system|fatal|error/)
      expect(results[1]).toContain(`Sandbox blocked a write to ${hook}`)
      expect(existsSync(hook)).toBe(false)
      const branch = git('for-each-ref', '--format=%(refname:short)', 'refs/heads/worktree-agent-*')
      expect(git('log', '-1', '--format=%s', branch)).toBe('from the sandbox')
      expect(git('log', '-1', '--format=%s', 'main')).toBe('init')
    } finally {
      await h.close()
      rmSync(work, { recursive: true, force: true })
      rmSync(home, { recursive: true, force: true })
    }
  }, 60_000)
})
