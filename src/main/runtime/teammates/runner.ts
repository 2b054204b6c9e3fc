import { LEAD_NAME, TeamNotFoundError, withMemberPatch } from '../teams'
import { createFileTeamStore, createTeamContext, type FileTeamStore, type StoredMessage } from '../teamStore'
import { createPtyHost } from '../pty'
import { canonicalWorkspace, agentTranscriptPath, ensureWritableDataDirectory } from '../storage'
import { connectModel } from '../runner'
import { loadWorkspaceSettings } from '../permissions'
import { readTeammateEnv } from './env'
import { mcpTimeoutsFromEnv } from '../mcp'
import { ownTeammateMcp } from './mcp'
import { randomUUID } from 'node:crypto'
import { isPersonMessage, parseMessageBody, protocolBody, protocolText } from '../../../shared/mailbox'
import { PermissionModeSchema, type PermissionMode } from '../../../shared/permissions'
import type { Task } from '../../../shared/tasks'
import { EventBus } from '../events'
import type { Disposable } from '../base'
import { createHookRunner } from '../hooks'
import { renderForModel, TeamGoneError } from '../mailbox'
import { DEFAULT_MODEL, resolveModel, type AgentIdentity } from '../model'

import { createMailboxNetworkAsker } from './mailboxNetworkAsker'
import { createMailboxPrompter } from './mailboxPrompter'

import { TeammateAgent } from './agent'
import { TeammatePermissionEngine, teamAllowedPaths } from './teamAllowedPaths'
import { runIdleHook } from './idleHook'
import { startHeartbeat } from './heartbeat'
import { claimNextTask, waitForWork } from './idleWork'
import { TeammateNotFoundError, type TeammateExit, type TeammateRunOptions } from './runOptions'

/**
 * Runs one teammate of the `process` backend until an approved shutdown or an abort (docs/teams.md#teammate-life-cycle):
 * marks it active, then loops — a shutdown request wins (one turn in which the model may reject it
 * with a reason; otherwise it leaves); then unread messages from the leader; then other unread
 * messages, oldest first; then the next task it may claim — each batch one user turn, each turn
 * followed by an `idle_notification` to the leader. On every exit path its
 * unfinished tasks go back to pending and it is marked inactive.
 * @throws RunUsageError (an invalid teammate environment, {@link readTeammateEnv}) / TeamNotFoundError / TeammateNotFoundError / DataDirectoryError (a data directory it cannot write) before anything runs; any error of a turn
 *   after cleaning up (a crash).
 */
export async function runTeammate(options: TeammateRunOptions): Promise<TeammateExit> {
  const { home, team, name, env } = options
  // an invalid variable is bad usage, named in the error, before anything is read or written
  const shared = readTeammateEnv(env)
  const leader = LEAD_NAME
  const store = options.store ?? createFileTeamStore(home)
  const config = await store.config.read(team)
  const member = config.members.find((m) => m.name === name)
  if (!member)
    throw new TeammateNotFoundError(
      `'${name}' is not a member of team '${team}'. Members: ${config.members.map((m) => m.name).join(', ') || 'none'}.`
    )
  const cwd = canonicalWorkspace(options.cwd ?? member.cwd)
  // a read-only or full data directory is bad input, reported before anything runs
  // (a team on JetStream has nothing here: its transcript and settings are all it writes)
  const files = store.transport === 'files' ? (store as FileTeamStore).files : undefined
  ensureWritableDataDirectory(home, cwd, files ? [files.teams.teamDir(team)] : [])
  const bus = options.bus ?? new EventBus()
  // on a server the leader follows what it publishes, not its transcript (docs/nats.md#a-teammates-events)
  const relay =
    store.transport === 'files' || options.relayEvents === false
      ? undefined
      : bus.onEvent((e) => store.events.publish(team, name, e))
  const { mailbox, tasks } = store
  const setActive = (isActive: boolean) =>
    store.config.update(team, (c) => withMemberPatch(c, name, { isActive }).config)
  const teamExists = () =>
    store.config.read(team).then(
      () => true,
      (error: unknown) => !(error instanceof TeamNotFoundError)
    )
  const sessionId = shared.sessionId ?? randomUUID()
  // the leader's --settings files and per-run trust, so both permission paths see the same rules (docs/teams.md#permission-requests)
  const settings = await loadWorkspaceSettings(cwd, home, shared.settingsFiles, shared.trustProject, shared.sources)
  const identity: AgentIdentity = { id: `${name}@${team}`, name, type: member.agentType || 'general-purpose', cwd }
  const transcriptPath = agentTranscriptPath(home, cwd, sessionId, identity.id)
  const hooks = settings.hooks.length
    ? createHookRunner({ hooks: settings.hooks, cwd, sessionId, transcriptPath })
    : undefined
  for (const message of hooks?.warnings ?? [])
    bus.emit({ type: 'notice', level: 'warning', message, agentId: identity.id, agentName: name })
  const teamContext = createTeamContext({
    home,
    sessionId,
    bus,
    leaderName: leader,
    store,
    ...(hooks ? { hooks } : {})
  })
  teamContext.setTeam(team)
  let mode: PermissionMode = shared.planModeRequired || member.planModeRequired ? 'plan' : member.mode
  const stopped = new AbortController()
  const onAbort = (): void => stopped.abort()
  options.signal?.addEventListener('abort', onAbort, { once: true })
  if (options.signal?.aborted) stopped.abort()
  // before it is marked active: a missing API key is bad usage, not a crash to tell the lead about
  const { retryBaseDelayMs, fetch: modelFetch } = options
  const connection = await connectModel({ env, settings, retryBaseDelayMs, fetch: modelFetch })
  const mcpEnv = { ...settings.env, ...env }
  const mcp =
    options.mcp ??
    ownTeammateMcp({
      home,
      cwd,
      sources: shared.sources,
      flagFiles: [...shared.mcpConfigFiles, ...(options.mcpConfigFiles ?? [])],
      env: mcpEnv,
      timeouts: mcpTimeoutsFromEnv(mcpEnv)
    })
  // a malformed MCP configuration is bad usage too, said before the teammate is marked active
  await mcp.session().catch(async (error: unknown) => {
    await mcp.close()
    await connection.close()
    throw error
  })
  const pty = options.pty ?? createPtyHost()
  await setActive(true)
  // its heartbeat on a server (docs/nats.md#liveness); on another host, cut off from it, it ends (docs/hosts.md#liveness)
  const beating = startHeartbeat(store, team, name, env, (ms) => {
    process.stderr.write(
      `${name}: no heartbeat reached the team's server for ${ms} ms; the lead has released its tasks. Exiting.\n`
    )
    void pty.dispose().finally(() => process.exit(1))
  })
  await beating?.first
  let outcome: 'shutdown' | 'aborted' | 'crashed' = 'crashed'
  let agent: TeammateAgent | undefined
  let interrupts: Disposable | undefined
  // the team's allowed paths, besides the settings' rules, followed as they change (docs/teams.md#allowed-paths)
  const allowedPaths = teamAllowedPaths(store, team)
  try {
    agent = new TeammateAgent({
      identity,
      transcriptPath,
      member,
      env,
      model: resolveModel(member.model || shared.model || DEFAULT_MODEL),
      team,
      leader,
      bus,
      mailbox,
      teamContext,
      client: connection,
      engine: new TeammatePermissionEngine(settings, allowedPaths),
      pty,
      mcp,
      mode: () => mode,
      setMode: (next) => {
        mode = next
      },
      prompter:
        options.prompter ??
        createMailboxPrompter({ mailbox, team, name, leader, ...(member.color ? { color: member.color } : {}) }),
      // a process teammate asks for a host in Claude Code's own message; a worker through its prompter
      ...(options.prompter
        ? {}
        : {
            networkAsker: createMailboxNetworkAsker({
              mailbox,
              team,
              name,
              leader,
              ...(member.color ? { color: member.color } : {})
            })
          }),
      signal: stopped.signal,
      idleHook: hooks && (() => runIdleHook(hooks, mailbox, team, name, stopped.signal, bus, identity.id))
    })
    await agent.start(options.projectContext)
    const started = agent
    interrupts = options.interrupts?.(() => void started.interrupt())
    for (;;) {
      if (stopped.signal.aborted) {
        outcome = 'aborted'
        return { reason: 'aborted' }
      }
      const unread = await mailbox.read(team, name, { unreadOnly: true })
      const visible: StoredMessage[] = []
      let shutdown: { entry: StoredMessage; requestId: string } | undefined
      const handled: string[] = []
      for (const entry of unread) {
        const body = parseMessageBody(entry.message.text)
        if (body.kind === 'structured' && body.body.type === 'shutdown_request') {
          // only the leader may ask for a shutdown (docs/teams.md#sendmessage-between-teammates); anyone else's request is dropped
          if (entry.message.from === leader) shutdown ??= { entry, requestId: body.body.requestId }
          else handled.push(entry.message.id)
          continue
        }
        if (body.kind === 'structured' && body.body.type === 'mode_set_request') {
          const parsed = PermissionModeSchema.safeParse(body.body.mode)
          if (parsed.success) mode = parsed.data
        }
        if (renderForModel(entry.message) === undefined) handled.push(entry.message.id)
        else visible.push(entry)
      }
      // runtime-only messages (stale permission answers, mode changes, malformed bodies) are consumed here
      if (handled.length) await mailbox.markRead(team, name, handled)
      if (shutdown) {
        await mailbox.markRead(team, name, [shutdown.entry.message.id])
        // the model hears the request and may reject it with a reason (docs/teams.md#teammate-life-cycle); else it is approved
        const answer = await agent.shutdownTurn(renderForModel(shutdown.entry.message) ?? '', shutdown.requestId)
        if (answer === 'aborted') continue
        if (answer === 'reject') continue
        agent.state('stopping')
        // released and inactive before the leader hears of it, so its TeamDelete right after succeeds
        await tasks.releaseOwnedBy(team, name).catch(() => [] as Task[])
        await setActive(false)
        // the leader may already have deleted the team (its last member went inactive just now): a
        // send would recreate the deleted team's inbox folder, and nobody would read it
        if (!(await teamExists())) {
          outcome = 'shutdown'
          return { reason: 'shutdown', requestId: shutdown.requestId }
        }
        // (and the check above can lose the race with that TeamDelete: the send then delivers nothing)
        const sent = await mailbox
          .send(
            team,
            leader,
            {
              from: name,
              body: protocolBody('shutdown_approved', { requestId: shutdown.requestId, from: name }),
              summary: `${name} is shutting down`,
              ...(member.color ? { color: member.color } : {})
            },
            { existingTeamOnly: true }
          )
          .catch((error: unknown) => {
            if (error instanceof TeamGoneError) return undefined
            throw error
          })
        if (!sent) {
          outcome = 'shutdown'
          return { reason: 'shutdown', requestId: shutdown.requestId }
        }
        teamContext.emit(
          { agentId: identity.id, agentName: name },
          { type: 'message_sent', from: name, to: leader, kind: 'shutdown_approved' }
        )
        outcome = 'shutdown'
        return { reason: 'shutdown', requestId: shutdown.requestId }
      }
      const fromLeader = visible.filter((e) => e.message.from === leader)
      const batch = fromLeader.length ? fromLeader : visible
      if (batch.length) {
        // the person's messages show in this teammate's pane as theirs, before the turn they start
        for (const { message } of batch)
          if (isPersonMessage(message, leader))
            bus.emit({ type: 'user_prompt', text: message.text, agentId: identity.id, agentName: name })
        // read once the turn shows (running, its prompt in the transcript): the leader's side never
        // sees the messages gone from the inbox while the teammate still looks idle
        await agent.turn(
          batch.flatMap((e) => renderForModel(e.message) ?? []),
          undefined,
          () =>
            mailbox.markRead(
              team,
              name,
              batch.map((e) => e.message.id)
            )
        )
        continue
      }
      const task = await claimNextTask(await tasks.listing(team), (id) => tasks.claim(team, id, name), name)
      if (task) {
        await agent.turn(taskPrompt(task, name), String(task.id))
        continue
      }
      await waitForWork(store, team, name, stopped.signal)
    }
  } finally {
    interrupts?.dispose()
    allowedPaths.dispose()
    options.signal?.removeEventListener('abort', onAbort)
    stopped.abort()
    // after an approved shutdown both were done before the leader heard of it, and the leader may
    // have deleted the team since: the config's lock would make its folder again
    const released = outcome === 'shutdown' ? [] : await tasks.releaseOwnedBy(team, name).catch(() => [] as Task[])
    if (outcome !== 'shutdown') await setActive(false).catch(() => undefined)
    await beating?.stop()
    if (outcome !== 'shutdown') {
      // the leader learns that it left without a shutdown, and which tasks are free again (docs/teams.md#teammate-life-cycle)
      const freed = released.length
        ? ` Its unfinished tasks are pending again: ${released.map((t) => `#${t.id}`).join(', ')}.`
        : ''
      const summary = `${name} ${outcome === 'aborted' ? 'was stopped' : 'crashed'} and exited.${freed}`
      const body = protocolBody('idle_notification', {
        from: name,
        idleReason: outcome === 'aborted' ? 'interrupted' : 'failed',
        summary
      })
      await mailbox
        .send(
          team,
          leader,
          { from: name, body, ...(member.color ? { color: member.color } : {}) },
          { existingTeamOnly: true }
        )
        .catch(() => undefined)
    }
    if (outcome !== 'crashed') agent?.state('exited')
    // docs/tools.md#mcp-servers: no server started for it or its subagents outlives it
    await agent?.closeSubagentMcp()
    await mcp.close()
    if (!options.pty) await pty.dispose()
    await connection.close()
    relay?.dispose()
  }
}

/**
 * The user turn of a task the teammate claimed by itself: the task as a `task_assignment`
 * element (docs/teams.md#mailbox's rendering, `request_id` = the task id, from the teammate itself since
 * nobody else assigned it), then what to do with it.
 */
function taskPrompt(task: Task, name: string): string {
  const body = protocolBody('task_assignment', {
    taskId: String(task.id),
    subject: task.subject,
    ...(task.description ? { description: task.description } : {}),
    assignedBy: name
  })
  const element = renderForModel({
    schemaVersion: 1,
    id: `task-${task.id}`,
    from: name,
    to: name,
    text: protocolText(body),
    timestamp: new Date().toISOString()
  })
  return [
    `You claimed task #${task.id} of the team's task list:`,
    element ?? task.subject,
    `Work on it now. When it is done, mark it completed with TaskUpdate (taskId "${task.id}", status "completed") and tell whoever needs the result with SendMessage.`
  ].join('\n')
}
