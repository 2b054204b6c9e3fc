import { describe, expect, it } from 'vitest'
import { worktreeNotificationXml } from './notification'

describe('worktreeNotificationXml', () => {
  it('renders the <worktree> fragment of a task notification with its text escaped', () => {
    expect(
      worktreeNotificationXml({
        worktreePath: '/r/.swarmdesk/worktrees/agent-1234abcd',
        worktreeBranch: 'worktree-agent-1234abcd'
      })
    ).toBe(
      '<worktree><worktreePath>/r/.swarmdesk/worktrees/agent-1234abcd</worktreePath><worktreeBranch>worktree-agent-1234abcd</worktreeBranch></worktree>'
    )
    expect(worktreeNotificationXml({ worktreePath: '/a<b>&c', worktreeBranch: 'x' })).toContain(
      '<worktreePath>/a&lt;b&gt;&amp;c</worktreePath>'
    )
  })
})
