import type { ClaudeTeams, ClaudeTeamTask, ClaudeTeamView } from '../../../shared/ipc'
import { Emitter, type Disposable } from '../../runtime/base'
import { IpcRequestError } from '../requestError'
import { CLAUDE_LEAD_NAME, planApprovalResponse, shutdownRequest, taskAssignment } from './protocol'
import { ClaudeTeamsRecorder } from './recorder'
import { renderTranscript } from './transcript'
import { appendToInbox, updateTask } from './writer'

/** A message's summary as Claude Code's SendMessage asks for one: a few words, here its first line cut at 60 characters. */
function preview(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? ''
  return line.length > 60 ? `${line.slice(0, 59)}…` : line
}

/**
 * The workspace's hold on Claude Code's teams (docs/claude-code-teams.md):
 * the recorder, started on first use, and the person's actions written with Claude Code's own
 * protocol, in the leader's name (`team-lead`), under its locks (writer.ts). Every action is
 * refused, with the reason, for a team that has ended or a name the team does not know.
 */
export class ClaudeTeamsControl implements Disposable {
  private recorder: ClaudeTeamsRecorder | undefined
  private readonly changed = new Emitter<ClaudeTeams>()
  /** Fires with every team after any of them changed. */
  readonly onDidChange = this.changed.event

  constructor(
    /** Claude Code's config folder. */
    readonly root: string,
    private readonly pollMs?: number
  ) {}

  /** Every team seen; the first call starts watching. */
  async list(): Promise<ClaudeTeams> {
    return (await this.started()).list()
  }

  /** A teammate's transcript (`who.name`), or a subagent's (`who.subagent`, its agent id), rendered as its pane text. */
  async transcript(team: string, who: { name?: string; subagent?: string }): Promise<{ path: string; text: string }> {
    const view = await this.team(team)
    let path: string | undefined
    if (who.subagent !== undefined) {
      path = view.subagents.find((a) => a.agentId === who.subagent)?.transcript
      if (!path) throw new IpcRequestError(`Team '${team}' has no subagent '${who.subagent}'.`)
    } else {
      const member = view.members.find((m) => m.name === who.name)
      if (!member) throw new IpcRequestError(`Team '${team}' has no member '${who.name}'.`)
      if (!member.transcript)
        throw new IpcRequestError(`No transcript of '${who.name}' was found (yet) in team '${team}'.`)
      path = member.transcript
    }
    try {
      return { path, text: await renderTranscript(path) }
    } catch (error) {
      throw new IpcRequestError(`Cannot read ${path}: ${(error as Error).message}`)
    }
  }

  /**
   * Drag-to-assign: sets the owner in the task file and writes a `task_assignment` to the owner's
   * inbox, as TaskUpdate does. Refused for a completed task and for an owner not in the team.
   */
  async assign(team: string, taskId: string, owner: string): Promise<ClaudeTeamTask> {
    const view = await this.liveTeam(team)
    this.activeMember(view, owner)
    const task = await this.write(() =>
      updateTask(this.root, team, taskId, (t) => {
        if (t.status === 'completed')
          throw new IpcRequestError(`Task #${taskId} is completed: there is nothing to assign.`)
        return { ...t, owner }
      })
    )
    await this.write(() =>
      appendToInbox(this.root, team, owner, { from: CLAUDE_LEAD_NAME, text: taskAssignment(task, CLAUDE_LEAD_NAME) })
    )
    const recorder = await this.started()
    await recorder.refresh()
    return recorder.team(team)!.tasks.find((t) => t.id === taskId)!
  }

  /** A plain message to a member's inbox, from `team-lead`. */
  async message(team: string, to: string, text: string): Promise<void> {
    const view = await this.liveTeam(team)
    if (to !== CLAUDE_LEAD_NAME) this.activeMember(view, to)
    await this.write(() => appendToInbox(this.root, team, to, { from: CLAUDE_LEAD_NAME, text, summary: preview(text) }))
    await this.refresh()
  }

  /** Writes a `shutdown_request` to a teammate's inbox; it may approve or reject it. */
  async shutdown(team: string, name: string, reason?: string): Promise<{ requestId: string }> {
    this.activeMember(await this.liveTeam(team), name)
    const request = shutdownRequest(name, CLAUDE_LEAD_NAME, reason)
    await this.write(() => appendToInbox(this.root, team, name, { from: CLAUDE_LEAD_NAME, text: request.text }))
    await this.refresh()
    return { requestId: request.requestId }
  }

  /** Answers the `plan_approval_request` `requestId` that `name` sent. @throws when no such request was seen. */
  async answerPlan(team: string, name: string, requestId: string, approve: boolean, feedback?: string): Promise<void> {
    const view = await this.liveTeam(team)
    this.activeMember(view, name)
    const asked = view.messages.some(
      (m) => m.kind === 'plan_approval_request' && m.from === name && m.text.includes(JSON.stringify(requestId))
    )
    if (!asked) throw new IpcRequestError(`'${name}' sent no plan approval request '${requestId}' in team '${team}'.`)
    const text = planApprovalResponse(requestId, approve, feedback ? { feedback } : {})
    await this.write(() => appendToInbox(this.root, team, name, { from: CLAUDE_LEAD_NAME, text }))
    await this.refresh()
  }

  dispose(): void {
    this.recorder?.dispose()
    this.changed.dispose()
  }

  private async refresh(): Promise<void> {
    await (await this.started()).refresh()
  }

  private async started(): Promise<ClaudeTeamsRecorder> {
    if (!this.recorder) {
      const recorder = (this.recorder = new ClaudeTeamsRecorder({
        root: this.root,
        ...(this.pollMs !== undefined ? { pollMs: this.pollMs } : {})
      }))
      recorder.onDidChange(() => this.changed.fire(recorder.list()))
    }
    await this.recorder.start()
    return this.recorder
  }

  private async team(team: string): Promise<ClaudeTeamView> {
    const recorder = await this.started()
    const view = recorder.team(team)
    if (!view) throw new IpcRequestError(`No Claude Code team '${team}' under ${this.root}.`)
    return view
  }

  private async liveTeam(team: string): Promise<ClaudeTeamView> {
    const view = await this.team(team)
    if (view.status !== 'live') throw new IpcRequestError(`Claude Code team '${team}' has ended: it is read-only.`)
    return view
  }

  private activeMember(view: ClaudeTeamView, name: string): void {
    const member = view.members.find((m) => m.name === name)
    if (!member || member.status !== 'active')
      throw new IpcRequestError(
        `'${name}' is not an active member of team '${view.name}'${member ? ' (it has shut down)' : ''}; members: ${
          view.members
            .filter((m) => m.status === 'active')
            .map((m) => m.name)
            .join(', ') || 'none'
        }.`
      )
  }

  /** Runs a write, turning the writer's refusals into request errors that say what was wrong. */
  private async write<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn()
    } catch (error) {
      if (error instanceof IpcRequestError) throw error
      const e = error as NodeJS.ErrnoException
      if (e.code === 'ELOCKED')
        throw new IpcRequestError(
          `Claude Code kept its file locked for 20 s (${e.message}); nothing was written, try again.`
        )
      throw new IpcRequestError(e.message)
    }
  }
}
