import { type PtyHost } from '../pty/types'
import { join } from 'node:path'
import { z } from 'zod'
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { ModelClient } from '../model/client'
import { createBackgroundShells, createPtyHost } from '../pty'
import { startScriptedServer, validateScenario, type ScenarioInput, type ScriptedServer } from '../scripted'
import { FileStateCache } from '../tools/files/fileState'
import type { Tool } from '../tools/types'
import { Budget } from './budget'
import { query } from './query'
import type { GateDecision, LoopEvent, QueryEnd, QueryParams } from './types'

/** A scripted server, an SDK client on it and a PTY host, for loop and session tests. */
export interface LoopHarness {
  server: ScriptedServer
  client: ModelClient
  pty: PtyHost
  close(): Promise<void>
}

/** Starts a {@link LoopHarness} on an inline scenario (validated like a scenario file). */
export async function startLoopHarness(scenario: ScenarioInput): Promise<LoopHarness> {
  const server = await startScriptedServer({ scenario: validateScenario(scenario, 'test-scenario') })
  const client = new ModelClient({ apiKey: 'test-key', baseURL: server.url, retryBaseDelayMs: 10, scriptedModel: true })
  const pty = createPtyHost()
  return {
    server,
    client,
    pty,
    async close() {
      await pty.dispose()
      await server.close()
    }
  }
}

/** Allows every call; the gate of loop tests that are not about permissions. */
export const allowAll = async (): Promise<GateDecision> => ({ behavior: 'allow' })

/** Runs `query()` to its end; returns every event and how it ended. */
export async function runQuery(
  harness: LoopHarness,
  options: { cwd: string; tools: Tool[]; prompt?: string; messages?: MessageParam[] } & Partial<
    Omit<QueryParams, 'tools' | 'messages'>
  >,
  onEvent?: (event: LoopEvent) => void
): Promise<{ events: LoopEvent[]; end: QueryEnd; messages: MessageParam[] }> {
  const messages: MessageParam[] = options.messages ?? [
    { role: 'user', content: [{ type: 'text', text: options.prompt ?? 'go' }] }
  ]
  const controller = new AbortController()
  const loop = query({
    agent: { id: 'team-lead', name: 'team-lead', type: 'main', cwd: options.cwd },
    model: 'claude-sonnet-5-5',
    system: [{ type: 'text', text: 'You are a test agent.' }],
    client: harness.client,
    signal: controller.signal,
    gate: allowAll,
    budget: new Budget(),
    // no transcript is written here: the file only names where cut texts are kept (beside it, in the test's folder)
    transcriptPath: join(options.cwd, '.swarmdesk-test-transcript.jsonl'),
    toolContext: {
      agentId: 'team-lead',
      agentName: 'team-lead',
      cwd: options.cwd,
      fileState: new FileStateCache(),
      pty: harness.pty,
      shells: createBackgroundShells(harness.pty)
    },
    ...options,
    messages
  })
  const events: LoopEvent[] = []
  for (;;) {
    const step = await loop.next()
    if (step.done) return { events, end: step.value, messages }
    events.push(step.value)
    onEvent?.(step.value)
  }
}

/**
 * A tool for observing the loop's scheduling: each call records when it started and ended
 * (`performance.now()`, ms) and sleeps `ms`. Concurrency safety is set per tool.
 */
export function probeTool(
  name: string,
  concurrencySafe: boolean,
  log: Array<{ id: string; start: number; end: number }>
): Tool<{ id: string; ms: number }> {
  return {
    name,
    description: 'Records when it runs, then waits ms milliseconds.',
    inputSchema: z.object({ id: z.string(), ms: z.number() }),
    isReadOnly: () => concurrencySafe,
    isConcurrencySafe: () => concurrencySafe,
    permissionSubject: () => ({ kind: 'none' }),
    async call(input) {
      const start = performance.now()
      await new Promise((r) => setTimeout(r, input.ms))
      log.push({ id: input.id, start, end: performance.now() })
      return { content: `probe ${input.id} done` }
    }
  }
}
