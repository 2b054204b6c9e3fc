import { useShallow } from 'zustand/react/shallow'
import { useAppStore } from '../../store/store'

/** Names of the session's teammates (agents with a backend, docs/teams.md#spawning-a-teammate), for the board's "Assign to" choice. */
export function useTeammateNames(): string[] {
  return useAppStore(
    useShallow((s) =>
      Object.values(s.workspace.agents)
        .filter((a) => a.backend !== undefined)
        .map((a) => a.agentName)
    )
  )
}

/** Task ids typed as `1, #3 4`; undefined when something else is in the text. */
export function parseTaskIds(text: string): number[] | undefined {
  const parts = text.split(/[\s,]+/).filter(Boolean)
  const ids = parts.map((p) => Number(p.replace(/^#/, '')))
  return ids.every((id) => Number.isSafeInteger(id) && id > 0) ? [...new Set(ids)] : undefined
}
