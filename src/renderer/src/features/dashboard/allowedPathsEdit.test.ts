// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { act, createElement } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { actions, appStore } from '../../store/store'
import { resetSeq, snapshot } from '../../store/store.testkit'
import { initialWorkspace } from '../../store/workspaceSlice'
import { initialDashboard } from '../../store/dashboardSlice'
import { AllowedPaths } from './AllowedPaths'
import { shownAllowedPaths } from './allowedPathsEdit'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

// The dashboard's "Allowed paths" section (docs/teams.md#allowed-paths, docs/ui.md#team-dashboard):
// what it lists from the snapshot and the pushes, for which team. Adding and removing against a
// real workspace is e2e/allowedPaths.spec.ts.

let root: Root | undefined
async function render(): Promise<void> {
  const el = document.createElement('div')
  document.body.append(el)
  root = createRoot(el)
  await act(async () => root?.render(createElement(AllowedPaths)))
}
const rows = () =>
  [...document.querySelectorAll<HTMLElement>('[data-testid="allowed-path"]')].map((r) => r.dataset.path)

beforeEach(() => {
  resetSeq()
  appStore.setState({ workspace: initialWorkspace(), dashboard: initialDashboard() })
})
afterEach(() => {
  act(() => root?.unmount())
  root = undefined
  document.body.innerHTML = ''
})

describe("the dashboard's allowed paths", () => {
  it("lists the team's paths only: none without a team, none yet for paths of another team", () => {
    expect(shownAllowedPaths({ paths: [] }, undefined)).toBeUndefined()
    expect(shownAllowedPaths({ team: 'crew', paths: ['/a'] }, 'crew')).toEqual(['/a'])
    expect(shownAllowedPaths({ team: 'old', paths: ['/a'] }, 'crew')).toEqual([])
    expect(shownAllowedPaths({ team: 'crew', paths: ['/a'] }, undefined)).toBeUndefined()
  })

  it('shows the snapshot’s paths, then each push; hidden while the session leads no team', async () => {
    await render()
    expect(document.querySelector('[data-testid="allowed-paths"]')).toBeNull()

    await act(async () =>
      actions.loadSnapshot(snapshot({ team: 'crew', allowedPaths: { team: 'crew', paths: ['/srv/docs', '/srv/api'] } }))
    )
    expect(rows()).toEqual(['/srv/docs', '/srv/api'])
    expect(document.querySelector('[aria-label="Remove allowed path /srv/api"]')).not.toBeNull()

    await act(async () => actions.setAllowedPaths({ team: 'crew', paths: ['/srv/api'] }))
    expect(rows()).toEqual(['/srv/api'])
    expect(document.querySelector('.allowed-paths-none')).toBeNull()

    await act(async () => actions.setAllowedPaths({ team: 'crew', paths: [] }))
    expect(rows()).toEqual([])
    expect(document.querySelector('.allowed-paths-none')?.textContent).toBe('None yet.')

    await act(async () => actions.setTeam(undefined))
    expect(document.querySelector('[data-testid="allowed-paths"]')).toBeNull()
  })
})
