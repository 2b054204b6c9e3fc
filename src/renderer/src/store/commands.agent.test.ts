import { afterEach, describe, expect, it } from 'vitest'
import type { WorkspaceApi } from '../../../shared/ipc'
import { commands, setCommandApi } from './commands'
import { appStore } from './store'

/** An API whose requests answer with `answer(channel, payload)` and are recorded. */
function fakeApi(answer: (channel: string, payload: unknown) => Promise<unknown>): {
  api: WorkspaceApi
  calls: Array<[string, unknown]>
} {
  const calls: Array<[string, unknown]> = []
  const api = {
    request: (channel: string, payload: unknown) => {
      calls.push([channel, payload])
      return answer(channel, payload)
    },
    on: () => () => undefined
  } as unknown as WorkspaceApi
  return { api, calls }
}

describe('requests from a subagent pane', () => {
  afterEach(() => {
    setCommandApi(undefined)
    appStore.getState().setAgentRequest('a-1', {})
    appStore.getState().setError(undefined)
  })

  it('stops the agent through agent.stop and leaves nothing pending', async () => {
    const { api, calls } = fakeApi(async () => ({ ok: true }))
    setCommandApi(api)
    const done = commands.stopAgent('a-1')
    expect(appStore.getState().panes.requests['a-1']).toEqual({ pending: 'stop' })
    expect(await done).toBe(true)
    expect(calls).toEqual([['agent.stop', { agentId: 'a-1' }]])
    expect(appStore.getState().panes.requests['a-1']).toBeUndefined()
  })

  it('shows a refusal on the agent’s pane, not in the status bar', async () => {
    const { api } = fakeApi(async () => {
      throw Object.assign(new Error('Agent a-1 already runs in the background.'), { name: 'IpcRequestError' })
    })
    setCommandApi(api)
    expect(await commands.backgroundAgent('a-1')).toBe(false)
    expect(appStore.getState().panes.requests['a-1']).toEqual({ error: 'Agent a-1 already runs in the background.' })
    expect(appStore.getState().connection.lastError).toBeUndefined()
  })

  it('says so on the pane when there is no connection', async () => {
    expect(await commands.stopAgent('a-1')).toBe(false)
    expect(appStore.getState().panes.requests['a-1']?.error).toMatch(/Not connected/)
  })
})
