import type { EventBus } from '../runtime/events'
import type { ModelConnection } from '../runtime/runner'
import { LEADER_NAME, type Session } from '../runtime/session'
import { modelAccessOf, requireModel, type KeyFix } from './modelAccess'
import { IpcRequestError } from './requestError'
import { RESUME_TURN } from './restore'

/** Inputs of {@link LeaderControl}. */
export interface LeaderControlOptions {
  /** The current session (a new session replaces it). */
  session(): Session
  /** The service's bus: the leader's notices go there. */
  bus: Pick<EventBus, 'emit'>
  model: ModelConnection
  /** Where a person adds an API key here. */
  keyFix: KeyFix
}

/**
 * The leader's turns as a person drives them (docs/ui.md#the-workspace-ui): a prompt starts a turn unless one runs,
 * `/fork <directive>` forks the conversation, what is queued for an idle leader (task
 * notifications, teammates' messages) starts a turn of its own, and the end of a turn says why it
 * stopped when that is news (budget, turn limit, a scenario error).
 */
export class LeaderControl {
  private working = false
  private running: Promise<unknown> = Promise.resolve()
  private closed = false

  constructor(private readonly options: LeaderControlOptions) {}

  /** The leader is working on a turn. */
  get busy(): boolean {
    return this.working
  }

  /** Resolves when the current turn, if any, has finished. */
  whenIdle(): Promise<void> {
    return this.running.then(() => undefined)
  }

  /**
   * A person's prompt (`leader.prompt`); `/fork <directive>` forks the leader instead.
   * @throws IpcRequestError while the leader works, without an API key, or for a fork that is off.
   */
  async prompt(text: string): Promise<{ ok: true }> {
    this.requireModel('A prompt')
    const fork = /^\/fork\s+([\s\S]+)$/.exec(text.trim())
    if (fork) return this.forkFromPrompt(fork[1]!.trim())
    if (this.working)
      throw new IpcRequestError('The leader is still working on the previous prompt; wait for it or press Stop.')
    this.run(text)
    return { ok: true }
  }

  /**
   * Esc in the leader's pane: stops its turn and says so in its pane; false when it had no turn running.
   */
  async interrupt(): Promise<boolean> {
    if (!this.working) return false
    // the runner notes the interrupt in the leader's pane, as it does for every agent
    this.options.session().interrupt()
    await this.running
    return true
  }

  /** Continues the leader's interrupted turn from its transcript (restore), as a prompt starts one. */
  resume(): void {
    this.run(RESUME_TURN)
  }

  /** Starts a turn on what is queued for the leader, if it is idle; a busy leader takes it at its next turn boundary. */
  wake(): void {
    // without a key, what is queued waits for one (a key set later wakes the leader)
    if (
      !this.working &&
      !this.closed &&
      this.options.session().pendingCount > 0 &&
      !modelAccessOf(this.options.model, this.options.keyFix).noApiKey
    )
      this.run(undefined)
  }

  /**
   * Refuses what needs a model while there is no API key.
   * @throws IpcRequestError naming `what` and where to add a key.
   */
  requireModel(what: string): void {
    requireModel(this.options.model, this.options.keyFix, what)
  }

  /** No turn starts from now on (the workspace closes); the one running is the closer's to stop. */
  close(): void {
    this.closed = true
  }

  /** `/fork <directive>` (docs/agents.md#forks): forks the leader's conversation as it stands, in the background. */
  private async forkFromPrompt(directive: string): Promise<{ ok: true }> {
    const session = this.options.session()
    const agents = session.subagents
    if (!agents?.options.forkEnabled)
      throw new IpcRequestError(
        agents?.options.coordinator
          ? 'Forks are off in coordinator mode.'
          : 'Forks are off in this workspace; start it with --fork to use /fork.'
      )
    if (this.working)
      throw new IpcRequestError('Wait for the leader to finish its turn before forking its conversation.')
    await agents.spawnFork({
      parent: session.asParent(),
      description: directive.split(/\s+/).slice(0, 5).join(' '),
      directive,
      fromPrompt: true
    })
    return { ok: true }
  }

  private run(text: string | undefined | typeof RESUME_TURN): void {
    const session = this.options.session()
    const { bus } = this.options
    this.working = true
    this.running = (text === RESUME_TURN ? session.resumeTurn() : session.prompt(text))
      .then((end) => {
        // a model error's notice and `error` state come from the session itself (loop/failure.ts)
        if (end.reason === 'model_error') {
          if (end.error.kind === 'scenario')
            bus.emit({
              type: 'scenario_error',
              message: end.error.message,
              agentId: LEADER_NAME,
              agentName: LEADER_NAME
            })
        } else if (end.reason === 'max_turns' || end.reason === 'budget') {
          bus.emit({
            type: 'notice',
            level: 'warning',
            message: `The leader stopped: ${end.reason === 'budget' ? 'the budget is spent' : 'the turn limit was reached'}.`,
            agentId: LEADER_NAME,
            agentName: LEADER_NAME
          })
        }
      })
      .catch((error: Error) => {
        bus.emit({
          type: 'notice',
          level: 'error',
          message: `The leader failed: ${error.message}`,
          agentId: LEADER_NAME,
          agentName: LEADER_NAME
        })
      })
      .finally(() => {
        this.working = false
        // Notifications that arrived while the turn was ending get their own turn.
        queueMicrotask(() => this.wake())
      })
  }
}
