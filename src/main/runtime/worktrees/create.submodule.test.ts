import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createWorktree } from './create'
import { finishWorktree } from './finish'
import { agentIdWith, git, makeRepo, type TestRepo } from './repo.testkit'

const repos: TestRepo[] = []
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()))

describe('a parent working in a submodule', () => {
  it("gets its child under the submodule's top level, branched from the submodule's HEAD", async () => {
    const lib = makeRepo()
    const app = makeRepo()
    repos.push(lib, app)
    git(app.root, '-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', lib.root, 'lib')
    git(app.root, 'commit', '--quiet', '-m', 'add lib')
    const sub = path.join(app.root, 'lib')
    git(sub, 'config', 'user.name', 'Test User')
    git(sub, 'config', 'user.email', 'test@example.com')
    const appHead = app.head()

    const wt = await createWorktree({ cwd: path.join(sub, 'src'), agentId: agentIdWith('5ab00001') })
    expect(wt.repoRoot).toBe(sub)
    expect(wt.path).toBe(path.join(sub, '.swarmdesk', 'worktrees', 'agent-5ab00001'))
    expect(wt.baseCommit).toBe(lib.head())
    expect(git(sub, 'status', '--porcelain')).toBe('')
    expect(git(app.root, 'status', '--porcelain')).toBe('')
    expect(app.head()).toBe(appHead)

    expect((await finishWorktree(wt)).kept).toBe(false)
  })
})
