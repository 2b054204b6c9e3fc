import type { SpawnRecord } from './claudeCode'
import { PromptCache, type Clock } from './promptCache'
import type { Scenario } from './scenario'
import { ScriptBook } from './scriptBook'

/** One request received on POST /v1/messages, as `GET /_scripted/requests` returns it. */
export interface RecordedRequest {
  /** 0-based position in arrival order. */
  index: number
  /** Arrival time, ISO 8601, from the server's clock. */
  time: string
  /** Headers as received (lower-case names). */
  headers: Record<string, string>
  /** The JSON-parsed body, or null when it was not JSON. */
  body: unknown
  /**
   * The body exactly as received (UTF-8 text; docs/model.md#model-access "the raw bodies"): byte-level checks such
   * as a fork's prompt prefix compare this. Absent when the body exceeded the size limit.
   */
  rawBody?: string
  /** The identity headers, decoded (docs/scenarios.md#scripted-model-scenarios: each value is percent-encoded UTF-8); absent when not sent. */
  agentName?: string
  agentType?: string
  agentId?: string
  cwd?: string
  /** The scenario's script that answered it (an agent's name, its type, or `*`) and which of its turns (0-based); absent when refused before a turn was picked. */
  script?: string
  turn?: number
  /**
   * Tokens of the prompt as the scripted model counts them (its whole prompt: tools, system and
   * messages; UTF-8 bytes / 4). Absent when the request was refused before its prompt was read
   * (authentication, a malformed body).
   */
  promptTokens?: number
}

/** Counters of `GET /_scripted/stats`. Tokens in tokens. */
export interface ScriptedStats {
  /** Requests received on POST /v1/messages. */
  requests: number
  /** Responses that read a prefix from the cache. */
  cacheHits: number
  /** Cache entries written. */
  cacheWrites: number
  cacheReadTokens: number
  cacheCreationTokens: number
  /** Scripted faults fired (each fires once per turn and agent instance). */
  faultsInjected: number
}

function zeroStats(): ScriptedStats {
  return { requests: 0, cacheHits: 0, cacheWrites: 0, cacheReadTokens: 0, cacheCreationTokens: 0, faultsInjected: 0 }
}

/** Everything a scripted server remembers; `reset()` forgets all of it (POST /_scripted/reset). */
export class ScriptedState {
  readonly book: ScriptBook
  readonly cache: PromptCache
  readonly log: RecordedRequest[] = []
  /** The log entry of each request still in flight, for the server's per-request report. */
  readonly recordOf = new WeakMap<object, RecordedRequest>()
  /** The Agent calls answered so far, by which a Claude Code subagent is known (docs/model.md#claude-code). */
  readonly spawns: SpawnRecord[] = []
  stats: ScriptedStats = zeroStats()

  constructor(
    readonly scenario: Scenario,
    readonly clock: Clock
  ) {
    this.book = new ScriptBook(scenario)
    this.cache = new PromptCache(scenario.cache, clock)
  }

  reset(): void {
    this.log.length = 0
    this.spawns.length = 0
    this.stats = zeroStats()
    this.cache.clear()
    this.book.reset()
  }
}
