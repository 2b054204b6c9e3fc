import { afterEach, describe, expect, it } from 'vitest'
import type { WorkspaceApi } from '../../../../shared/ipc'
import type { SettingsView } from '../../../../shared/settings'
import { setCommandApi } from '../../store/commands'
import { actions, appStore } from '../../store/store'
import { followSettingsChange, settingsCommands, settingsStore } from './settingsStore'

/** A view as main answers it: the user file's values, and what applies now over every source. */
function view(values: SettingsView['values'], effective?: SettingsView['effective']): SettingsView {
  return {
    file: '/home/me/.swarmdesk/settings.json',
    values,
    dataDir: { path: '/home/me/.swarmdesk', fromEnv: false },
    apiKey: { source: 'none', storage: 'environmentOnly' },
    project: { workspace: '/w', trusted: true, via: 'file', ignored: [], hooks: [] },
    ...(effective ? { effective } : {})
  }
}

function answering(answer: (channel: string) => SettingsView): void {
  setCommandApi({
    request: async (channel: string) => answer(channel),
    on: () => () => undefined
  } as unknown as WorkspaceApi)
}

afterEach(() => {
  setCommandApi(undefined)
  actions.setPaneScrollback(1_000)
})

describe('Settings saves in the page', () => {
  it('apply what main says applies now, not the user file value a project file outranks', async () => {
    answering(() =>
      view({ paneScrollbackLines: 7_000, stuckAfterMinutes: 2 }, { paneScrollbackLines: 300, stuckAfterMinutes: 2 })
    )
    expect(await settingsCommands.save({ paneScrollbackLines: 7_000, stuckAfterMinutes: 2 })).toBe(true)
    expect(appStore.getState().panes.scrollbackLines).toBe(300)
    expect(appStore.getState().dashboard.stuckAfterMinutes).toBe(2)
  })

  it("apply the user file's values when main does not say, and a trust change applies what now counts", async () => {
    answering(() => view({ paneScrollbackLines: 4_000 }))
    await settingsCommands.save({ paneScrollbackLines: 4_000 })
    expect(appStore.getState().panes.scrollbackLines).toBe(4_000)
    // trusting the workspace: the project's file now counts
    answering(() => view({ paneScrollbackLines: 4_000 }, { paneScrollbackLines: 250, stuckAfterMinutes: 5 }))
    expect(await settingsCommands.trust(true)).toBe(true)
    expect(appStore.getState().panes.scrollbackLines).toBe(250)
  })

  it('gives the spawn form the teammate hosts that apply after the save (docs/hosts.md#in-the-ui)', async () => {
    actions.setSpawnOptions({ agentTypes: [], defaultBackend: 'worker', hosts: ['box'] })
    answering(() =>
      view(
        { stuckAfterMinutes: 3 },
        { paneScrollbackLines: 1_000, stuckAfterMinutes: 3, teammateHosts: ['box', 'gpu'] }
      )
    )
    expect(await settingsCommands.save({ stuckAfterMinutes: 3 })).toBe(true)
    expect(appStore.getState().dashboard.spawnOptions?.hosts).toEqual(['box', 'gpu'])
  })
})

describe('a settings reload pushed by main (settings.changed)', () => {
  afterEach(() => settingsStore.setState({ open: false, view: undefined, reloadProblem: undefined, error: undefined }))

  it('applies what applies now, keeps the shown values while the user file has the same, and shows a refusal', async () => {
    const shown = view({ stuckAfterMinutes: 3 })
    settingsStore.setState({ open: true, view: shown })
    answering(() => view({ stuckAfterMinutes: 3 }, { paneScrollbackLines: 600, stuckAfterMinutes: 3 }))
    await followSettingsChange({
      effective: { paneScrollbackLines: 600, stuckAfterMinutes: 3, teammateHosts: [] },
      reloadProblem: '/w/.swarmdesk/settings.json (stuckAfterMinutes): bad'
    })
    expect(appStore.getState().panes.scrollbackLines).toBe(600)
    // the same values: the dialog's draft (which starts again when `values` changes) is left alone
    expect(settingsStore.getState().view?.values).toBe(shown.values)
    expect(settingsStore.getState().view?.effective?.paneScrollbackLines).toBe(600)
    // the view main answered has no refusal: the pushed one was older than the view
    expect(settingsStore.getState().reloadProblem).toBeUndefined()

    answering(() => ({ ...view({ stuckAfterMinutes: 8 }), reloadProblem: 'still bad' }))
    await followSettingsChange({
      effective: { paneScrollbackLines: 600, stuckAfterMinutes: 8 },
      reloadProblem: 'still bad'
    })
    expect(settingsStore.getState().view?.values).toEqual({ stuckAfterMinutes: 8 })
    expect(settingsStore.getState().reloadProblem).toBe('still bad')
    expect(appStore.getState().dashboard.stuckAfterMinutes).toBe(8)
  })

  it('with the dialog closed, applies the values and keeps the refusal for when it opens', async () => {
    answering(() => {
      throw new Error('the closed dialog asks main for nothing')
    })
    await followSettingsChange({ effective: { paneScrollbackLines: 700, stuckAfterMinutes: 4 }, reloadProblem: 'bad' })
    expect(appStore.getState().panes.scrollbackLines).toBe(700)
    expect(settingsStore.getState().reloadProblem).toBe('bad')
    expect(settingsStore.getState().error).toBeUndefined()
  })
})
