import { protocolBody } from '../../../shared/mailbox'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseMessageBody } from '../../../shared/mailbox'
import { createMailbox } from '../mailbox'
import { startScriptedServer, type ScriptedServer } from '../scripted'
import { TeamStore } from '../teams'
import { agentTranscriptPath } from '../storage/paths'

const REPO = join(__dirname, '..', '..', '..', '..')
const BIN = join(REPO, 'bin', 'swarmdesk')

async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 20_000
): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

type Block = { type: string; content?: unknown; is_error?: boolean }

/**
 * A `process` teammate's Agent tool (docs/agents.md#agent-definitions, docs/teams.md#spawning-a-teammate), through `swarmdesk teammate` as the pane runs
 * it: a sync Explore subagent whose Read and Bash run in the teammate's process and whose final
 * text is the tool result; `name` and `run_in_background` refused, nothing spawned.
 */
describe('swarmdesk teammate (process backend) spawns sync subagents', () => {
  let home: string
  let work: string
  let server: ScriptedServer

  // the CLI bundle is built by the test run's global setup (scripts/test-global-setup.mjs)
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'swarmdesk-teammate-sub-home-'))
    work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-teammate-sub-work-')))
    writeFileSync(join(work, 'notes.txt'), 'SECRET-NOTE: the answer is 42\n')
  })

  afterAll(async () => {
    await server?.close()
    rmSync(home, { recursive: true, force: true })
    rmSync(work, { recursive: true, force: true })
  })

  it('runs an Explore subagent to its final text, refuses a teammate and a background agent, and writes the transcripts side by side', async () => {
    server = await startScriptedServer({
      scenario: {
        strict: true,
        agents: {
          alice: [
            {
              when: 'survey the notes',
              tools: [
                {
                  name: 'Agent',
                  input: {
                    subagent_type: 'Explore',
                    description: 'read the notes',
                    prompt: 'Read notes.txt and count its bytes'
                  }
                }
              ]
            },
            {
              when: 'agentId:',
              tools: [
                { name: 'Agent', input: { name: 'bob', description: 'second pair of hands', prompt: 'help alice' } },
                {
                  name: 'Agent',
                  input: { description: 'background helper', prompt: 'work quietly', run_in_background: true }
                }
              ]
            },
            { when: 'sync subagents only', text: 'Explore answered; the rest was refused.' }
          ],
          'read-the-notes': [
            { tools: [{ name: 'Read', input: { file_path: 'notes.txt' } }] },
            { when: 'SECRET-NOTE', tools: [{ name: 'Bash', input: { command: 'wc -c notes.txt' } }] },
            { when: '30 notes.txt', text: 'The notes hold SECRET-NOTE; wc says: {{last_tool_result}}' }
          ]
        }
      }
    })
    const team = 'procsub'
    const sessionId = '6a1d2c3b-4e5f-4a6b-8c7d-9e0f1a2b3c4d'
    const teams = new TeamStore(home)
    await teams.create({
      name: team,
      description: 'process subagents',
      lead: { name: 'team-lead', agentType: 'main', model: 'claude-sonnet-5-5', backendType: 'main', cwd: work }
    })
    await teams.addMember(team, {
      name: 'alice',
      agentType: 'general-purpose',
      model: 'claude-sonnet-5-5',
      backendType: 'process',
      cwd: work,
      isActive: false,
      mode: 'default'
    })
    const child: ChildProcess = spawn(process.execPath, [BIN, 'teammate', '--team', team, '--name', 'alice'], {
      cwd: work,
      env: {
        ...process.env,
        SWARMDESK_HOME: home,
        ANTHROPIC_BASE_URL: server.url,
        SWARMDESK_SCRIPTED_MODEL_URL: server.url,
        ANTHROPIC_API_KEY: 'x',
        SWARMDESK_SESSION_ID: sessionId,
        NO_COLOR: '1'
      },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    const mailbox = createMailbox({ home })
    const leadInbox = async () =>
      (await mailbox.read(team, 'team-lead')).messages.map((e) => {
        const body = parseMessageBody(e.message.text)
        return body.kind === 'structured'
          ? (body.body as Record<string, unknown>)
          : { type: 'plain', text: e.message.text }
      })

    await mailbox.send(team, 'alice', { from: 'team-lead', text: 'please survey the notes' })
    await until('alice idle', async () =>
      (await leadInbox()).some(
        (m) => m.type === 'idle_notification' && m.summary === 'Explore answered; the rest was refused.'
      )
    )

    // her transcript: the subagent's final text as the Agent result, then the two refusals
    const agentsDir = join(agentTranscriptPath(home, work, sessionId, 'x'), '..')
    const results = readFileSync(join(agentsDir, `alice@${team}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; message: { content: Block[] | string } })
      .flatMap((e) =>
        e.type === 'user' && Array.isArray(e.message.content)
          ? e.message.content.filter((b) => b.type === 'tool_result')
          : []
      )
    const text = (b: Block) =>
      typeof b.content === 'string' ? b.content : (b.content as Array<{ text: string }>).map((c) => c.text).join('')
    expect(results).toHaveLength(3)
    expect(results[0]!.is_error).toBeFalsy()
    expect(text(results[0]!)).toMatch(
      /^The notes hold SECRET-NOTE; wc says: .*30 notes\.txt[\s\S]*\n\nagentId: a[0-9a-f]{16}$/
    )
    expect(results.slice(1).map((b) => [b.is_error, text(b)])).toEqual([
      [
        true,
        "Teammates cannot spawn teammates: the team's roster is flat and only team-lead adds members. Omit `name` to start a sync subagent, or ask team-lead with SendMessage for another teammate."
      ],
      [
        true,
        'Teammates may spawn sync subagents only: call the agent without run_in_background, and its final answer comes back as the result.'
      ]
    ])

    // exactly one subagent ran, as Explore, its transcript beside hers; no teammate was added
    const childId = /agentId: (a[0-9a-f]{16})$/.exec(text(results[0]!))![1]!
    expect(readdirSync(agentsDir).sort()).toEqual([`${childId}.jsonl`, `alice@${team}.jsonl`].sort())
    expect(readFileSync(join(agentsDir, `${childId}.jsonl`), 'utf8')).toContain('Read notes.txt and count its bytes')
    expect(new Set(server.requests().map((r) => r.agentName))).toEqual(new Set(['alice', 'read-the-notes']))
    expect(server.requests().find((r) => r.agentName === 'read-the-notes')!.headers['x-swarmdesk-agent-type']).toBe(
      'Explore'
    )
    expect(teams.read(team).members.map((m) => m.name)).toEqual(['team-lead', 'alice'])
    expect((await leadInbox()).some((m) => m.type === 'permission_request')).toBe(false)
    // its events were printed on the teammate's terminal in its own name
    expect(stdout).toContain('read-the-notes (Explore) started')

    await mailbox.send(team, 'alice', {
      from: 'team-lead',
      body: protocolBody('shutdown_request', { requestId: 'bye', reason: 'done' })
    })
    expect(await exit).toBe(0)
    expect(stderr).not.toMatch(/crashed/)
  }, 60_000)
})
