import { useState } from 'react'
import { useStore } from 'zustand'
import { createStore } from 'zustand/vanilla'
import type { ClaudeTeams } from '../../../../shared/ipc'
import { connectedApi } from '../../store/commands'

// Claude Code's teams as the renderer holds them (docs/claude-code-teams.md): one copy for the
// dashboard's rows, the task board and the drawer's tab, listed once connected and replaced by
// every `claudeTeams.changed` push.

/** The teams seen (undefined until the first answer), or why they could not be listed. */
export interface ClaudeTeamsState {
  teams: ClaudeTeams | undefined
  error: string | undefined
}

export const claudeTeamsStore = createStore<ClaudeTeamsState>(() => ({ teams: undefined, error: undefined }))

let started = false

/**
 * Starts following Claude Code's teams (idempotent): subscribes to `claudeTeams.changed` and asks
 * `claudeTeams.list` (main starts watching its config folder then). Call once connected.
 */
export function startClaudeTeams(): void {
  if (started) return
  let api
  try {
    api = connectedApi()
  } catch {
    return // not connected yet: the next call starts it
  }
  started = true
  api.on('claudeTeams.changed', (teams) => claudeTeamsStore.setState({ teams, error: undefined }))
  api.request('claudeTeams.list', {}).then(
    (teams) => claudeTeamsStore.setState({ teams, error: undefined }),
    (e: unknown) => claudeTeamsStore.setState({ error: e instanceof Error ? e.message : String(e) })
  )
}

/** A slice of the Claude Code teams state, re-rendering when it changes. */
export function useClaudeTeams<T>(select: (s: ClaudeTeamsState) => T): T {
  return useStore(claudeTeamsStore, select)
}

/** Runs a request, keeping its refusal (main says why) to show instead of throwing. */
export function useAction(): [string | undefined, (work: () => Promise<unknown>) => void] {
  const [error, setError] = useState<string | undefined>()
  const run = (work: () => Promise<unknown>): void => {
    setError(undefined)
    work().catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
  }
  return [error, run]
}

/** The drag data type of a Claude Code task card: JSON `{team, taskId}`. */
export const CLAUDE_TASK_DRAG = 'application/x-claude-task'

/** The task a drop carries for `team`, or undefined when it is another team's or not a Claude Code card. */
export function droppedTask(data: DataTransfer, team: string): string | undefined {
  try {
    const parsed = JSON.parse(data.getData(CLAUDE_TASK_DRAG)) as { team?: unknown; taskId?: unknown }
    return parsed.team === team && typeof parsed.taskId === 'string' ? parsed.taskId : undefined
  } catch {
    return undefined
  }
}
