import { readdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { RuntimeEvent, RuntimeEventInput } from '../../../../shared/events'
import type { EventBus } from '../../events'
import type { TeammateSpawnConfig } from '../executor'
import { SubagentFollower, type SubagentOrphaning } from './subagentFollower'
import { TranscriptTail } from './transcriptTail'

/** How the leader follows a process teammate: its own events and its sync subagents'. */
export interface TeammateFollowing {
  /** Reads what is there now (a transcript read to its end). */
  readNow(): void
  close(): void
  /** Stops following its subagents; one that wrote no end of its own ends as `orphaning` says. */
  closeSubagents(orphaning?: SubagentOrphaning): void
}

/**
 * What the leader's inbox emits for a `process` teammate itself, on either store: the permission
 * questions it relays to a person and their answers. The teammate's own copies, which it publishes
 * on a server, are not emitted again, so each question shows once. (Its own `agent_state` events
 * are handed to the supervisor, {@link TeammateSpawnConfig.onState}, which emits each change once.)
 */
const LEADER_MADE: ReadonlySet<RuntimeEvent['type']> = new Set(['permission_request', 'permission_decided'])

/**
 * Follows a `process` teammate for the leader's panes (docs/teams.md#spawning-a-teammate,
 * docs/nats.md#a-teammates-events). On files: its transcript (and its subagents') under the
 * leader's data directory, from `fromOffset`. On a server store: the events it publishes there
 * (its subagents' included), since its transcript may be in a data directory of its own; a turn
 * start is its `agent_state` `running`. Its own permission events are the leader's to emit
 * ({@link LEADER_MADE}), as on files; its own states go to `config.onState` when given.
 */
export function followTeammate(
  config: TeammateSpawnConfig,
  bus: EventBus,
  transcriptPath: string,
  fromOffset: number,
  pollMs: number | undefined
): TeammateFollowing {
  const { agentId, name: agentName } = config
  const warn = (message: string) => bus.emit({ type: 'notice', level: 'warning', message, agentId, agentName })
  const store = config.store
  if (store && store.transport !== 'files') {
    const sub = store.events.follow(config.team, config.name, (event) => {
      const { seq: _seq, time, ...input } = event
      if (event.agentId === agentId && LEADER_MADE.has(event.type)) return
      if (event.agentId === agentId && event.type === 'agent_state' && config.onState)
        config.onState(event.state, event.reason)
      else bus.emit(input as RuntimeEventInput)
      if (event.type === 'agent_state' && event.state === 'running') config.onTurnStart?.(time)
    })
    return { readNow: () => undefined, close: () => sub.dispose(), closeSubagents: () => undefined }
  }
  const tail = new TranscriptTail({
    path: transcriptPath,
    bus,
    agentId,
    agentName,
    fromOffset,
    ...(pollMs !== undefined ? { pollMs } : {}),
    ...(config.onTurnStart ? { onPrompt: config.onTurnStart } : {}),
    onWarning: warn
  })
  // a subagent transcript already there belongs to an earlier run of the session, not to this process
  const agentsDir = dirname(transcriptPath)
  const subagents = new SubagentFollower({
    dir: agentsDir,
    parentId: agentId,
    bus,
    skip: listNames(agentsDir),
    ...(pollMs !== undefined ? { pollMs } : {}),
    onWarning: warn
  })
  return {
    readNow: () => tail.readNow(),
    close: () => tail.close(),
    closeSubagents: (orphaning) => subagents.close(orphaning)
  }
}

/** The entries of a directory, none when it does not exist (yet). */
function listNames(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}
