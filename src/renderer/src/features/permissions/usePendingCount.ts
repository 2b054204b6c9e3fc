import { selectPendingCount } from '../../store/permissionsSlice'
import { useAppStore } from '../../store/store'

/**
 * How many permission requests and plan approvals wait for a person, live (docs/ui.md#the-workspace-ui): the count
 * badge of the global queue, for the drawer tab that holds it. Re-renders only when the count
 * changes.
 */
export function usePendingCount(): number {
  return useAppStore(selectPendingCount)
}
