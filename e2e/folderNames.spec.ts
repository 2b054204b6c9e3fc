import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { expect, expectPaneToContain, promptLeader, test } from './fixtures'
import { startServe } from './serve'
import { createTempRepo } from './workspace'

// Issue 29, "Any folder name works", through `serve` in Chromium: a workspace folder named in
// CJK, Cyrillic and emoji, with spaces; the leader, a worker and a process teammate and a subagent
// in a worktree each get their own script, with {{cwd}} and {{agent_name}} filled in.

const SCENARIO = {
  name: 'e2e-folder-names',
  agents: {
    'team-lead': [
      { text: 'Leading in {{cwd}}.', tools: [{ name: 'TeamCreate', input: { team_name: 'crew' } }] },
      {
        tools: [
          {
            name: 'Agent',
            input: { name: 'wanda', backend: 'worker', description: 'writer', prompt: 'Write your file.' }
          },
          {
            name: 'Agent',
            input: { name: 'pablo', backend: 'process', description: 'writer', prompt: 'Write your file.' }
          }
        ]
      },
      {
        tools: [
          {
            name: 'Agent',
            input: { description: 'tree writer', isolation: 'worktree', prompt: 'Write your file in your worktree.' }
          }
        ]
      },
      { text: 'Everyone is at work.' },
      ...Array.from({ length: 12 }, () => ({ text: 'Noted.' }))
    ],
    wanda: [
      { tools: [{ name: 'Write', input: { file_path: '{{cwd}}/wanda.txt', content: '{{agent_name}}|{{cwd}}' } }] },
      { text: 'Written by {{agent_name}}.' },
      ...Array.from({ length: 4 }, () => ({ text: 'Bye.' }))
    ],
    pablo: [
      { tools: [{ name: 'Write', input: { file_path: '{{cwd}}/pablo.txt', content: '{{agent_name}}|{{cwd}}' } }] },
      { text: 'Written by {{agent_name}}.' },
      ...Array.from({ length: 4 }, () => ({ text: 'Bye.' }))
    ],
    'tree-writer': [
      { tools: [{ name: 'Write', input: { file_path: '{{cwd}}/tree.txt', content: '{{agent_name}}|{{cwd}}' } }] },
      { text: 'Written in {{cwd}}.' }
    ]
  }
}

for (const name of ['项目 工作区', 'Проект папка', 'emoji 🚀 folder ✨']) {
  test(`serve on a folder named "${name}": every agent gets its own script and the folder's real path`, async ({
    page
  }) => {
    test.setTimeout(120_000)
    const repo = createTempRepo(name)
    const served = await startServe({ cwd: repo, scenario: SCENARIO, permissionMode: 'bypassPermissions' })
    try {
      await page.goto(served.url)
      await expect(page.getByText(repo, { exact: true })).toBeVisible()
      await promptLeader(page, 'Write your files.')
      await expectPaneToContain(page, `Leading in ${repo}.`)
      await expectPaneToContain(page, 'Written by wanda.', 'wanda@crew')
      await expectPaneToContain(page, 'Written by pablo.', 'pablo@crew')
      await expectPaneToContain(page, 'Everyone is at work.')
      expect(readFileSync(join(repo, 'wanda.txt'), 'utf8')).toBe(`wanda|${repo}`)
      expect(readFileSync(join(repo, 'pablo.txt'), 'utf8')).toBe(`pablo|${repo}`)
      const [tree] = readdirSync(join(repo, '.swarmdesk', 'worktrees'))
      const treeDir = join(repo, '.swarmdesk', 'worktrees', tree!)
      expect(readFileSync(join(treeDir, 'tree.txt'), 'utf8')).toBe(`tree-writer|${treeDir}`)
      // the leader's requests name the folder in the system prompt, and its header carries it encoded
      const lead = (await served.modelRequests()).find((r) => r.headers['x-swarmdesk-agent-name'] === 'team-lead')!
      expect(lead.headers['x-swarmdesk-cwd']).toBe(encodeURIComponent(repo))
      expect(JSON.stringify(lead.body.system)).toContain(repo)
    } finally {
      const stderr = served.stderr()
      expect(await served.stop(), `serve should stop cleanly; stderr:\n${stderr}`).toBe(0)
      rmSync(dirname(repo), { recursive: true, force: true })
    }
  })
}
