import { protocolBody } from '../../../shared/mailbox'
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseMessageBody } from '../../../shared/mailbox'
import { createMailbox } from '../mailbox'
import { startScriptedServer, type ScriptedServer } from '../scripted'
import { TaskStore } from '../tasks'
import { TeamStore } from '../teams'
import { workspaceSlug } from '../storage/paths'

const REPO = join(__dirname, '..', '..', '..', '..')
const BIN = join(REPO, 'bin', 'swarmdesk')

/** Polls `check` until it returns a value other than undefined/false, or fails after `ms`. */
async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 15_000
): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode)
    else child.once('exit', (code) => resolve(code))
  })
}

describe('swarmdesk teammate (process backend)', () => {
  let home: string
  let work: string
  let server: ScriptedServer
  const servers: ScriptedServer[] = []
  const children: ChildProcess[] = []
  const mailbox = () => createMailbox({ home })

  // The CLI bundle is built once by the test run's global setup (scripts/test-global-setup.mjs);
  // rebuilding it here could hand a half-written bundle to another test starting the CLI.
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'swarmdesk-teammate-home-'))
    work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-teammate-work-')))
  }, 120_000)

  afterAll(async () => {
    // a failed test may leave its teammate running: stop it before its folders are removed
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await Promise.all(children.map(exited))
    await Promise.all(servers.map((s) => s.close()))
    rmSync(home, { recursive: true, force: true })
    rmSync(work, { recursive: true, force: true })
  })

  /** Creates team `t` with team-lead and alice (in `mode`), and starts alice's process. */
  async function startAlice(
    team: string,
    mode: 'default' | 'bypassPermissions',
    extraEnv: Record<string, string> = {}
  ): Promise<{ child: ChildProcess; stderr: () => string }> {
    const teams = new TeamStore(home)
    await teams.create({
      name: team,
      description: 'test team',
      lead: { name: 'team-lead', agentType: 'main', model: 'claude-sonnet-5-5', backendType: 'main', cwd: work }
    })
    await teams.addMember(team, {
      name: 'alice',
      agentType: 'general-purpose',
      model: 'claude-sonnet-5-5',
      backendType: 'process',
      cwd: work,
      isActive: false,
      mode
    })
    const child = spawn(process.execPath, [BIN, 'teammate', '--team', team, '--name', 'alice'], {
      cwd: work,
      env: {
        ...process.env,
        SWARMDESK_HOME: home,
        ANTHROPIC_BASE_URL: server.url,
        SWARMDESK_SCRIPTED_MODEL_URL: server.url,
        ANTHROPIC_API_KEY: 'x',
        SWARMDESK_TEAM: team,
        SWARMDESK_AGENT_NAME: 'alice',
        ...extraEnv
      },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    children.push(child)
    let err = ''
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
    child.stdout!.resume()
    await until('alice active', () => teams.read(team).members.find((m) => m.name === 'alice')?.isActive)
    return { child, stderr: () => err }
  }

  async function leadInbox(team: string) {
    return (await mailbox().read(team, 'team-lead')).messages.map((e) => {
      const body = parseMessageBody(e.message.text)
      return {
        from: e.message.from,
        text: e.message.text,
        type: body.kind === 'structured' ? body.body.type : 'plain',
        body: body.kind === 'structured' ? (body.body as Record<string, unknown>) : undefined
      }
    })
  }

  it('talks through the mailbox, claims tasks, asks the lead for permission and shuts down on request', async () => {
    const target = join(work, 'approved.txt')
    server = await startScriptedServer({
      scenario: {
        agents: {
          alice: [
            {
              when: 'hello from the lead',
              tools: [
                { name: 'SendMessage', input: { to: 'team-lead', message: 'hi lead, alice here', summary: 'greeting' } }
              ]
            },
            { when: 'Message sent to team-lead', text: 'Greeted the lead.' },
            {
              when: 'You claimed task #1',
              tools: [{ name: 'TaskUpdate', input: { taskId: '1', status: 'completed' } }]
            },
            { when: 'Updated task #1', text: 'Finished task one.' },
            {
              when: 'please write the file',
              tools: [{ name: 'Write', input: { file_path: target, content: 'approved\n' } }]
            },
            { when: `Created ${target}`, text: 'Wrote the file.' }
          ]
        }
      }
    })
    servers.push(server)
    const team = 'crew'
    const { child, stderr } = await startAlice(team, 'default')
    const exit = exited(child)
    const lead = mailbox()

    // a plain message from the lead → alice answers with SendMessage, then goes idle
    await lead.send(team, 'alice', { from: 'team-lead', text: 'hello from the lead' })
    await until('alice greeting and idle', async () => {
      const inbox = await leadInbox(team)
      return (
        inbox.some((m) => m.type === 'plain' && m.text === 'hi lead, alice here') &&
        inbox.some((m) => m.type === 'idle_notification' && m.body?.summary === 'Greeted the lead.')
      )
    })

    // a task appears → idle alice claims and completes it
    const tasks = new TaskStore(home, team)
    await tasks.create({ subject: 'first task', description: 'do the first thing' })
    await until('task 1 completed by alice', () => {
      const t = tasks.get(1)
      return t?.status === 'completed' && t.owner === 'alice'
    })
    await until('idle after task 1', async () =>
      (await leadInbox(team)).some((m) => m.type === 'idle_notification' && m.body?.completedTaskId === '1')
    )

    // a Write in default mode → permission_request to the lead; the answer lets it run
    await lead.send(team, 'alice', { from: 'team-lead', text: 'please write the file' })
    const request = await until('permission_request', async () =>
      (await leadInbox(team)).find((m) => m.type === 'permission_request')
    )
    expect(request.body).toMatchObject({ agentName: 'alice', toolName: 'Write', input: { file_path: target } })
    expect(existsSync(target)).toBe(false)
    await lead.send(team, 'alice', {
      from: 'team-lead',
      body: protocolBody('permission_response', { requestId: request.body!.requestId, decision: 'allow' })
    })
    await until('file written', () => existsSync(target))
    expect(readFileSync(target, 'utf8')).toBe('approved\n')
    await until('idle after the write', async () =>
      (await leadInbox(team)).some((m) => m.type === 'idle_notification' && m.body?.summary === 'Wrote the file.')
    )

    // an unfinished task of alice's goes back to pending when she shuts down
    await tasks.create({ subject: 'second task', description: 'left unfinished' })
    await until('task 2 claimed or handled', () => tasks.get(2)?.owner === 'alice' || undefined, 15_000).catch(
      () => undefined
    )
    if (tasks.get(2)?.owner !== 'alice') await tasks.update(2, { owner: 'alice', status: 'in_progress' })

    await lead.send(team, 'alice', {
      from: 'team-lead',
      body: protocolBody('shutdown_request', { requestId: 'shutdown-1', reason: 'done for today' })
    })
    expect(await exit).toBe(0)
    expect(stderr()).not.toMatch(/crashed/)
    const inbox = await leadInbox(team)
    expect(inbox.find((m) => m.type === 'shutdown_approved')?.body).toMatchObject({
      requestId: 'shutdown-1',
      from: 'alice'
    })
    expect(new TeamStore(home).read(team).members.find((m) => m.name === 'alice')?.isActive).toBe(false)
    expect(tasks.get(2)).toMatchObject({ status: 'pending' })
    expect(tasks.get(2)?.owner).toBeUndefined()
    expect(tasks.get(1)).toMatchObject({ status: 'completed', owner: 'alice' })
  }, 60_000)

  it('in bypass mode never asks; writes its own transcript; SIGTERM releases its tasks and marks it inactive', async () => {
    const target = join(work, 'bypass.txt')
    server = await startScriptedServer({
      scenario: {
        agents: {
          alice: [
            { when: 'run the command', tools: [{ name: 'Bash', input: { command: `echo done > ${target}` } }] },
            { when: 'run the command', text: 'never used' },
            { text: 'Ran it.' }
          ]
        }
      }
    })
    servers.push(server)
    const team = 'solo'
    const sessionId = '0b6f3c1e-5d2a-4c1b-9a7e-3f2d1c0b9a8e'
    const { child, stderr } = await startAlice(team, 'bypassPermissions', { SWARMDESK_SESSION_ID: sessionId })
    const exit = exited(child)
    const lead = mailbox()
    await lead.send(team, 'alice', { from: 'team-lead', text: 'please run the command' })
    await until('idle after the command', async () =>
      (await leadInbox(team)).some((m) => m.type === 'idle_notification' && m.body?.summary === 'Ran it.')
    )
    expect(readFileSync(target, 'utf8')).toBe('done\n')
    expect((await leadInbox(team)).some((m) => m.type === 'permission_request')).toBe(false)
    const transcript = join(home, 'projects', workspaceSlug(work), sessionId, 'agents', `alice@${team}.jsonl`)
    expect(readFileSync(transcript, 'utf8')).toContain('please run the command')

    // work she holds when she is stopped goes back to the pool
    const tasks = new TaskStore(home, team)
    await tasks.create({ subject: 'held task', owner: 'alice' })
    await tasks.update(1, { owner: 'alice', status: 'in_progress' })
    child.kill('SIGTERM')
    expect(await exit).toBe(1)
    expect(stderr()).toMatch(/stopped/)
    expect(new TeamStore(home).read(team).members.find((m) => m.name === 'alice')?.isActive).toBe(false)
    expect(tasks.get(1)).toMatchObject({ status: 'pending' })
    expect(tasks.get(1)?.owner).toBeUndefined()
    const left = (await leadInbox(team)).filter((m) => m.type === 'idle_notification').at(-1)
    expect(left?.body).toMatchObject({ idleReason: 'interrupted', summary: expect.stringContaining('#1') })
  }, 60_000)

  it('a crash exits 1 with the error on stderr, releases its tasks and marks it inactive', async () => {
    server = await startScriptedServer({ scenario: { agents: { alice: [{ text: 'unused' }] } } })
    servers.push(server)
    const team = 'fragile'
    const { child, stderr } = await startAlice(team, 'default')
    const exit = exited(child)
    const tasks = new TaskStore(home, team)
    await tasks.create({ subject: 'held work' })
    await until('claimed', () => tasks.get(1)?.owner === 'alice')
    await until('idle', async () => (await leadInbox(team)).some((m) => m.type === 'idle_notification'))
    // her inbox becomes unreadable: the next look at it fails
    const inbox = join(home, 'teams', team, 'inboxes', 'alice', 'new')
    // (the idle teammate's inbox watch may be re-creating folders meanwhile: insist until it is a file)
    await until('the inbox replaced by a file', () => {
      try {
        rmSync(inbox, { recursive: true, force: true })
        mkdirSync(dirname(inbox), { recursive: true })
        writeFileSync(inbox, 'not a directory', { flag: 'wx' })
      } catch {
        return false
      }
      return statSync(inbox).isFile()
    })
    await tasks.create({ subject: 'wake-up call' })
    expect(await exit).toBe(1)
    // reading the inbox or re-creating its folders, whichever the teammate does first, names the file in the way
    expect(stderr()).toMatch(/crashed: .*the inbox of 'alice' cannot be used: .* is a file, where a folder must be/)
    expect(new TeamStore(home).read(team).members.find((m) => m.name === 'alice')?.isActive).toBe(false)
    expect(tasks.get(1)).toMatchObject({ status: 'pending' })
    expect(tasks.get(1)?.owner).toBeUndefined()
  }, 60_000)

  it('a TeammateIdle hook that exits 2 keeps it working with its stderr, then it goes idle', async () => {
    const hookHome = mkdtempSync(join(tmpdir(), 'swarmdesk-teammate-hook-'))
    const marker = join(hookHome, 'blocked-once')
    // blocks the first time only: exit 2 with the instruction on stderr
    const command = `if [ -e ${marker} ]; then exit 0; fi; touch ${marker}; echo "also check the docs" >&2; exit 2`
    writeFileSync(
      join(hookHome, 'settings.json'),
      JSON.stringify({ hooks: { TeammateIdle: [{ hooks: [{ type: 'command', command }] }] } })
    )
    server = await startScriptedServer({
      scenario: {
        agents: {
          alice: [
            { when: 'start now', text: 'Started.' },
            { when: 'also check the docs', text: 'Checked the docs.' }
          ]
        }
      }
    })
    servers.push(server)
    const savedHome = home
    home = hookHome
    try {
      const team = 'hooked'
      const { child } = await startAlice(team, 'default')
      const exit = exited(child)
      await mailbox().send(team, 'alice', { from: 'team-lead', text: 'start now' })
      const idle = await until('idle notification', async () => {
        const found = (await leadInbox(team)).filter((m) => m.type === 'idle_notification')
        return found.length > 0 && found
      })
      expect(idle.map((m) => m.body?.summary)).toEqual(['Checked the docs.'])
      await mailbox().send(team, 'alice', {
        from: 'team-lead',
        body: protocolBody('shutdown_request', { requestId: 'bye' })
      })
      expect(await exit).toBe(0)
    } finally {
      home = savedHome
      rmSync(hookHome, { recursive: true, force: true })
    }
  }, 60_000)

  it('exits 2 naming an unknown team', () => {
    let failure: { status: number; stderr: string } | undefined
    try {
      execFileSync(process.execPath, [BIN, 'teammate', '--team', 'nope', '--name', 'alice'], {
        env: { ...process.env, SWARMDESK_HOME: home, ANTHROPIC_API_KEY: 'x' },
        stdio: 'pipe'
      })
    } catch (error) {
      const e = error as { status: number; stderr: Buffer }
      failure = { status: e.status, stderr: e.stderr.toString() }
    }
    expect(failure?.status).toBe(2)
    expect(failure?.stderr).toMatch(/nope/)
  })
})
