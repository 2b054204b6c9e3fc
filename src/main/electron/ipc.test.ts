import { describe, expect, it, vi } from 'vitest'
import { REQUEST_CHANNELS, requestChannels } from '../../shared/ipc'
import { fuzzCases } from '../testkit/ipcFuzz.testkit'
import { registerWorkspaceIpc } from './ipc'
import { createAppOrigin } from './origin'
import { APP_URL, FakeIpcMain, FakeWebContents, FakeWorkspaceHost, INDEX_HTML } from './electron.testkit'

vi.mock('electron', () => ({}))

function setup(targets: FakeWebContents[] = []) {
  const ipcMain = new FakeIpcMain()
  const host = new FakeWorkspaceHost()
  const registration = registerWorkspaceIpc({
    ipcMain,
    host,
    origin: createAppOrigin(INDEX_HTML),
    targets: () => targets.map((t) => t.asWebContents())
  })
  return { ipcMain, host, registration }
}

describe('workspace IPC handlers', () => {
  it('registers exactly one handler per request channel of the contract', () => {
    const { ipcMain } = setup()
    expect([...ipcMain.handlers.keys()].sort()).toEqual([...REQUEST_CHANNELS].sort())
  })

  it('passes a valid request to the service with the parsed payload and answers its result', async () => {
    const { ipcMain, host } = setup()
    host.answer = async () => ({ ok: true })
    const answer = await ipcMain.invoke('leader.prompt', { text: '  fix the tests  ' })
    expect(answer).toEqual({ ok: true, result: { ok: true } })
    expect(host.calls).toEqual([{ channel: 'leader.prompt', payload: { text: 'fix the tests' } }])
  })

  it.each([
    ['leader.prompt', { text: '' }],
    ['leader.prompt', { text: 'hi', extra: 1 }],
    ['leader.prompt', 'hi'],
    ['permission.respond', { requestId: 'r1', decision: 'maybe' }],
    ['workspace.setMode', { mode: 'bubble' }],
    ['workspace.snapshot', { anything: true }],
    ['pane.scrollback', undefined],
    ['pane.scrollback', { agentId: 'team-lead', lines: -1 }],
    ['pane.scrollback', { agentId: 'team-lead', lines: 100_001 }],
    ['pane.scrollback', { agentId: 'team-lead', lines: 2.5 }],
    ['pane.resize', { agentId: 'team-lead', cols: 0, rows: 24 }],
    ['pane.resize', { agentId: 'team-lead', cols: 80, rows: 1_000_000 }],
    ['pane.resize', { agentId: 'team-lead', cols: 80.5, rows: 24 }]
  ])('rejects a malformed %s payload without calling the service', async (channel, payload) => {
    const { ipcMain, host } = setup()
    const answer = (await ipcMain.invoke(channel, payload)) as { ok: boolean; error: { name: string; message: string } }
    expect(answer.ok).toBe(false)
    expect(answer.error.name).toBe('InvalidPayloadError')
    expect(answer.error.message).toContain(channel)
    expect(host.calls).toEqual([])
  })

  it('passes a pane size within bounds to the service', async () => {
    const { ipcMain, host } = setup()
    host.answer = async () => ({ ok: true })
    expect(await ipcMain.invoke('pane.resize', { agentId: 'alice@crew', cols: 2000, rows: 1 })).toEqual({
      ok: true,
      result: { ok: true }
    })
    expect(host.calls).toEqual([{ channel: 'pane.resize', payload: { agentId: 'alice@crew', cols: 2000, rows: 1 } }])
  })

  it.each([
    ['another file', { url: 'file:///tmp/evil.html', parent: null }],
    ['a web page', { url: 'https://example.com/', parent: null }],
    ['the app page loaded in a subframe', { url: APP_URL, parent: { url: APP_URL, parent: null } }],
    ['a frame that is gone', null]
  ])('refuses a request from %s without calling the service', async (_label, frame) => {
    const { ipcMain, host } = setup()
    const answer = await ipcMain.invoke('leader.prompt', { text: 'hi' }, frame)
    expect(answer).toEqual({
      ok: false,
      error: { name: 'ForbiddenSenderError', message: expect.stringContaining('leader.prompt') }
    })
    expect(host.calls).toEqual([])
  })

  it('accepts the app page with a hash or query', async () => {
    const { ipcMain, host } = setup()
    await ipcMain.invoke('workspace.snapshot', {}, { url: `${APP_URL}?pane=lead#mailbox`, parent: null })
    expect(host.calls).toHaveLength(1)
  })

  it("answers the service's error as {name, message}", async () => {
    const { ipcMain, host } = setup()
    host.answer = async () => {
      const error = new Error('The leader is busy')
      error.name = 'IpcRequestError'
      throw error
    }
    expect(await ipcMain.invoke('leader.prompt', { text: 'hi' })).toEqual({
      ok: false,
      error: { name: 'IpcRequestError', message: 'The leader is busy' }
    })
  })

  it("sends the service's pushes to the app's windows only", () => {
    const app = new FakeWebContents()
    const navigatedAway = new FakeWebContents('https://example.com/')
    const closed = new FakeWebContents()
    closed.destroyed = true
    const { host } = setup([app, navigatedAway, closed])
    host.push('pane.data', { agentId: 'a', data: 'x', chunk: 1 })
    host.push('not.a.channel', { secret: true })
    expect(app.sent).toEqual([{ channel: 'pane.data', payload: { agentId: 'a', data: 'x', chunk: 1 } }])
    expect(navigatedAway.sent).toEqual([])
    expect(closed.sent).toEqual([])
  })

  it('removes its handlers and push subscription on dispose', () => {
    const { ipcMain, host, registration } = setup()
    registration.dispose()
    expect(ipcMain.handlers.size).toBe(0)
    expect(host.listenerCount).toBe(0)
  })

  it('trusts only the dev server origin in development', async () => {
    const ipcMain = new FakeIpcMain()
    const host = new FakeWorkspaceHost()
    registerWorkspaceIpc({
      ipcMain,
      host,
      origin: createAppOrigin(INDEX_HTML, 'http://localhost:5173/'),
      targets: () => []
    })
    expect(
      await ipcMain.invoke('workspace.snapshot', {}, { url: 'http://localhost:5173/', parent: null })
    ).toMatchObject({ ok: true })
    expect(await ipcMain.invoke('workspace.snapshot', {}, { url: APP_URL, parent: null })).toMatchObject({ ok: false })
    expect(
      await ipcMain.invoke('workspace.snapshot', {}, { url: 'http://localhost:5174/', parent: null })
    ).toMatchObject({ ok: false })
  })

  it('refuses 10,000 malformed payloads across every channel with InvalidPayloadError, never calling the service or throwing across IPC', async () => {
    const { ipcMain, host } = setup()
    host.answer = async () => ({ ok: true })
    // Electron hands the payload over as sent: a missing one is not an empty one here
    const cases = fuzzCases(
      10_000,
      4242,
      (channel, payload) => !requestChannels[channel].request.safeParse(payload).success
    ).filter((c) => c.mutation !== 'unknown channel')
    expect(cases.length).toBeGreaterThan(9_000)
    const surprises: string[] = []
    for (const c of cases) {
      const answer = (await ipcMain.invoke(c.channel, c.payload)) as {
        ok: boolean
        error?: { name: string; message: string }
      }
      if (
        answer.ok ||
        answer.error?.name !== 'InvalidPayloadError' ||
        !answer.error.message.startsWith(`${c.channel}:`)
      )
        surprises.push(`${c.channel} (${c.mutation}): ${JSON.stringify(answer).slice(0, 200)}`)
    }
    expect(surprises).toEqual([])
    expect(host.calls).toEqual([])
    expect(Object.prototype).not.toHaveProperty('polluted')
  })
})
