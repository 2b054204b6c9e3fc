import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { until, useWorkerTestbed } from './worker.testkit'

/** The system prompt text of `name`'s first model request. */
function systemOf(requests: ReturnType<ReturnType<typeof useWorkerTestbed>['requests']>, name: string): string {
  const body = requests.find((r) => r.agentName === name)?.body as { system?: Array<{ text: string }> } | undefined
  return (body?.system ?? []).map((b) => b.text).join('\n')
}

describe('worker teammates started together', () => {
  const bed = useWorkerTestbed('swarmdesk-worker-context')

  it("share one read of their folder's project context (git snapshot), which a later executor reads afresh", async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: bed.work, encoding: 'utf8' })
    git('init', '-q', '-b', 'main')
    writeFileSync(join(bed.work, 'tracked.txt'), 'one\n')
    git('add', '.')
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'first')
    const turns = [{ text: 'Ready.' }]
    const [alice, bob, carol] = await bed.prepareTeam(
      'context',
      { alice: turns, bob: turns, carol: turns },
      'Say that you are ready.'
    )
    const workers = bed.executor({ warmSpare: false })
    await workers.spawn(alice!)
    await until("alice's first model request", () => bed.requests().some((r) => r.agentName === 'alice'))
    // the folder changes before bob starts: a read of his own would show the new file
    writeFileSync(join(bed.work, 'untracked-later.txt'), 'two\n')
    await workers.spawn(bob!)
    await until("bob's first model request", () => bed.requests().some((r) => r.agentName === 'bob'))
    // another executor (another session) reads it afresh
    await bed.executor({ warmSpare: false }).spawn(carol!)
    await until("carol's first model request", () => bed.requests().some((r) => r.agentName === 'carol'))

    const [a, b, c] = ['alice', 'bob', 'carol'].map((n) => systemOf(bed.requests(), n))
    expect(a).toContain('main')
    const snapshot = (text: string) => text.slice(text.indexOf('# Git status'))
    expect(a).toContain('# Git status at session start')
    expect(snapshot(b)).toBe(snapshot(a))
    expect(b).not.toContain('untracked-later.txt')
    expect(c).toContain('untracked-later.txt')
  }, 60_000)
})
