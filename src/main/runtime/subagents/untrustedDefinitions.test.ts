/**
 * Project trust for agent definitions (docs/permissions.md#permissions "Project trust", docs/agents.md#agent-definitions): a definition file shipped in
 * a workspace's own `.swarmdesk/agents/` or `.claude/agents/` cannot raise its agents' permission
 * mode until the person trusts the workspace — the same rule as `bypassPermissions` in that
 * workspace's settings. Runs the production wiring, a leader session in `default` mode, the
 * scripted model over HTTP and real files; the question the person would see is recorded.
 */
import { readTeammateEnv, TEAMMATE_TRUST_PROJECT_ENV } from '../teammates/env'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { PermissionPromptRequest } from '../../../shared/permissions'
import { trustWorkspace } from '../permissions/trust'
import { runUntilSettled } from '../session/headless'

import { openTestSession } from '../session/session.testkit'
import { loadSubagentWiring } from './wiring'

const TEST_MS = 60_000
const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

/** A git workspace whose project ships `deployer`, a definition asking for `bypassPermissions`. */
function workspace(): { work: string; home: string; definition: string } {
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-untrusted-')))
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-untrustedhome-')))
  cleanups.push(
    () => rmSync(work, { recursive: true, force: true }),
    () => rmSync(home, { recursive: true, force: true })
  )
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
  mkdirSync(join(work, '.swarmdesk', 'agents'), { recursive: true })
  const definition = join(work, '.swarmdesk', 'agents', 'deployer.md')
  writeFileSync(
    definition,
    [
      '---',
      'name: deployer',
      'description: Deploys without asking',
      'permissionMode: bypassPermissions',
      '---',
      'You deploy.',
      ''
    ].join('\n')
  )
  return { work, home, definition }
}

/** Runs the leader (default mode) starting `deployer`, which writes `deployed.txt`, with a person who denies every question; returns what they were asked. */
async function runDeploy(work: string, home: string): Promise<PermissionPromptRequest[]> {
  const asked: PermissionPromptRequest[] = []
  const h = await openTestSession({
    work,
    home,
    prompter: {
      prompt: async (question) => {
        asked.push(question)
        return { decision: 'deny', by: 'user', reason: 'not now' }
      }
    },
    scenario: {
      agents: {
        'team-lead': [
          {
            tools: [{ name: 'Agent', input: { description: 'deploy', prompt: 'deploy it', subagent_type: 'deployer' } }]
          },
          { text: 'done' }
        ],
        deploy: [
          { tools: [{ name: 'Write', input: { file_path: 'deployed.txt', content: 'shipped\n' } }] },
          { text: 'deployed' }
        ]
      }
    }
  })
  cleanups.push(() => h.close())
  const end = await runUntilSettled(h.session, 'deploy')
  expect(end.reason).toBe('completed')
  return asked
}

describe('agent definitions of an untrusted workspace', () => {
  it(
    'cannot put their agents in bypassPermissions: the write asks the person, who denies it, and nothing is written',
    async () => {
      const { work, home, definition } = workspace()
      const wiring = await loadSubagentWiring({ cwd: work, home, env: {} })
      expect(wiring.subagents.definitions().get('deployer')?.permissionMode).toBeUndefined()
      expect(wiring.files.find((f) => f.source === definition)?.warnings).toEqual([
        {
          field: 'permissionMode',
          message: expect.stringContaining("'bypassPermissions' ignored: this workspace is not trusted")
        }
      ])

      const asked = await runDeploy(work, home)
      expect(asked).toHaveLength(1)
      expect(asked[0]).toMatchObject({ tool: 'Write', agentName: 'deploy' })
      expect(existsSync(join(work, 'deployed.txt'))).toBe(false)
    },
    TEST_MS
  )

  it(
    'keep their mode once the person trusts the workspace: the same write then runs without a question',
    async () => {
      const { work, home } = workspace()
      await trustWorkspace(home, work)
      const asked = await runDeploy(work, home)
      expect(asked).toEqual([])
      expect(existsSync(join(work, 'deployed.txt'))).toBe(true)
    },
    TEST_MS
  )

  it("honour a run's --trust-project, passed to teammates through the environment", async () => {
    const { work, home } = workspace()
    const viaOption = await loadSubagentWiring({ cwd: work, home, env: {}, trustProject: true })
    expect(viaOption.subagents.definitions().get('deployer')?.permissionMode).toBe('bypassPermissions')
    // a teammate reads the run's trust from its environment and hands it to its wiring (teammates/agent.ts)
    const teammateEnv = { [TEAMMATE_TRUST_PROJECT_ENV]: '1' }
    const viaEnv = await loadSubagentWiring({
      cwd: work,
      home,
      env: teammateEnv,
      trustProject: readTeammateEnv(teammateEnv).trustProject
    })
    expect(viaEnv.subagents.definitions().get('deployer')?.permissionMode).toBe('bypassPermissions')
    const untrusted = await loadSubagentWiring({
      cwd: work,
      home,
      env: {},
      trustProject: readTeammateEnv({}).trustProject
    })
    expect(untrusted.subagents.definitions().get('deployer')?.permissionMode).not.toBe('bypassPermissions')
  })
})
