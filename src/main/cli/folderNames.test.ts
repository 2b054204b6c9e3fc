import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startScriptedServer } from '../runtime/scripted'
import { ofType, runCli } from './cli.testkit'

// Issue 29, "Any folder name works": a workspace whose path holds any character (CJK, Cyrillic,
// emoji, spaces) runs end to end — the leader, teammates of both backends and a subagent in a
// worktree each get their own script, with {{cwd}} and {{agent_name}} filled in.

/** Folder names in several scripts, with spaces and emoji. */
const FOLDERS = ['项目 工作区', 'Проект папка', 'emoji 🚀 folder ✨']

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A fresh home and a git repository with one commit, in a folder called `name`. */
function workspaceNamed(name: string): { home: string; work: string } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-names-')))
  made.push(base)
  const work = join(base, name)
  mkdirSync(work)
  writeFileSync(join(work, 'README.md'), '# a project\n')
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.name=T', '-c', 'user.email=t@swarmdesk.invalid', '-c', 'commit.gpgsign=false', ...args],
      { cwd: work, stdio: 'pipe' }
    )
  git('init', '-q', '-b', 'main')
  git('add', '.')
  git('commit', '-q', '-m', 'init')
  return { home: join(base, 'home'), work }
}

/** Each agent writes `<who>.txt` in its own folder, naming itself and the folder it was told of. */
const SCENARIO = `
agents:
  team-lead:
    - text: "Leading in {{cwd}}."
      tools:
        - { name: Write, input: { file_path: "{{cwd}}/lead.txt", content: "{{agent_name}}|{{cwd}}" } }
    - tools: [ { name: TeamCreate, input: { team_name: crew } } ]
    - tools:
        - { name: Agent, input: { name: wanda, backend: worker, mode: bypassPermissions, description: "writer", prompt: "Write your file." } }
        - { name: Agent, input: { name: pablo, backend: process, mode: bypassPermissions, description: "writer", prompt: "Write your file." } }
    - tools:
        - { name: Agent, input: { description: "tree writer", isolation: worktree, prompt: "Write your file in your worktree." } }
    - text: "Everyone is at work."
${'    - { text: "Noted." }\n'.repeat(12)}
  wanda:
    - tools: [ { name: Write, input: { file_path: "{{cwd}}/wanda.txt", content: "{{agent_name}}|{{agent_id}}|{{cwd}}" } } ]
    - text: "Written."
${'    - { text: "Bye." }\n'.repeat(4)}
  pablo:
    - tools: [ { name: Write, input: { file_path: "{{cwd}}/pablo.txt", content: "{{agent_name}}|{{agent_id}}|{{cwd}}" } } ]
    - text: "Written."
${'    - { text: "Bye." }\n'.repeat(4)}
  tree-writer:
    - tools: [ { name: Write, input: { file_path: "{{cwd}}/tree.txt", content: "{{agent_name}}|{{cwd}}" } } ]
    - text: "Written in {{cwd}}."
`

describe.each(FOLDERS)('a workspace folder named %s', (name) => {
  it('runs the leader, a worker and a process teammate and a worktree subagent, each on its own script', async () => {
    const { home, work } = workspaceNamed(name)
    const scenario = join(home, '..', 'scenario.yaml')
    writeFileSync(scenario, SCENARIO)
    const run = await runCli(
      ['run', '--cwd', work, '--scenario', scenario, '--approve', 'all', '--json', 'Write your files'],
      { env: { SWARMDESK_HOME: home } }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(ofType(run.events, 'assistant_text').find((e) => e.agentId === 'team-lead')?.text).toContain(
      `Leading in ${work}.`
    )
    expect(readFileSync(join(work, 'lead.txt'), 'utf8')).toBe(`team-lead|${work}`)
    expect(readFileSync(join(work, 'wanda.txt'), 'utf8')).toBe(`wanda|wanda@crew|${work}`)
    expect(readFileSync(join(work, 'pablo.txt'), 'utf8')).toBe(`pablo|pablo@crew|${work}`)
    // the subagent's folder is its worktree, under the workspace (kept: it holds a new file)
    const trees = readdirSync(join(work, '.swarmdesk', 'worktrees'))
    expect(trees).toHaveLength(1)
    const tree = join(work, '.swarmdesk', 'worktrees', trees[0]!)
    expect(readFileSync(join(tree, 'tree.txt'), 'utf8')).toBe(`tree-writer|${tree}`)
    expect(ofType(run.events, 'scenario_error')).toEqual([])
  }, 90_000)
})

describe('a run aimed at a scripted-server of its own', () => {
  it('tags requests only with SWARMDESK_SCRIPTED_MODEL_URL; the system prompt names the folder either way', async () => {
    const { home, work } = workspaceNamed('Проект 🚀')
    const server = await startScriptedServer({
      scenario: { agents: { 'team-lead': [{ text: 'lead in {{cwd}}' }], '*': [{ text: 'anyone in {{cwd}}' }] } }
    })
    try {
      // as any Anthropic-compatible endpoint: no identity headers, so only the `*` script applies
      const plain = await runCli(['run', '--cwd', work, '--json', 'hello'], {
        env: { SWARMDESK_HOME: home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url }
      })
      expect(plain.stderr).toBe('')
      expect(plain.code).toBe(0)
      expect(ofType(plain.events, 'assistant_text').map((e) => e.text)).toEqual(['anyone in '])
      // told it is the scripted model: tagged, so the leader's own script applies
      const tagged = await runCli(['run', '--cwd', work, '--json', 'hello'], {
        env: { SWARMDESK_HOME: home, ANTHROPIC_API_KEY: 'k', SWARMDESK_SCRIPTED_MODEL_URL: server.url }
      })
      expect(tagged.stderr).toBe('')
      expect(tagged.code).toBe(0)
      expect(ofType(tagged.events, 'assistant_text').map((e) => e.text)).toEqual([`lead in ${work}`])
      const [first, second] = server.requests()
      expect(Object.keys(first!.headers).filter((h) => h.startsWith('x-swarmdesk-'))).toEqual([])
      expect(second).toMatchObject({ agentName: 'team-lead', cwd: work })
      for (const request of [first!, second!])
        expect(JSON.stringify((request.body as { system: unknown }).system)).toContain(
          JSON.stringify(work).slice(1, -1)
        )
    } finally {
      await server.close()
    }
    // a scripted-model URL of another host is refused before anything is sent
    const remote = await runCli(['run', '--cwd', work, '--json', 'hello'], {
      env: { SWARMDESK_HOME: home, ANTHROPIC_API_KEY: 'k', SWARMDESK_SCRIPTED_MODEL_URL: 'https://api.example.com' }
    })
    expect(remote.code).toBe(2)
    expect(remote.stderr).toContain(
      'SWARMDESK_SCRIPTED_MODEL_URL must be the http URL of a scripted model server on this machine'
    )
  }, 60_000)
})
