// @vitest-environment happy-dom
import { act, createElement } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { WorkspaceApi } from '../../../../shared/ipc'
import type { ApiKeyStatus, SettingsView } from '../../../../shared/settings'
import { setCommandApi } from '../../store/commands'
import { SettingsDialog } from './SettingsDialog'
import { settingsCommands, settingsStore } from './settingsStore'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

/** The view main would answer on a Linux machine whose keychain fell back to basic_text. */
function viewWith(apiKey: ApiKeyStatus): SettingsView {
  return {
    file: '/home/me/.swarmdesk/settings.json',
    values: { rules: { allow: [], ask: [], deny: [] } },
    dataDir: { path: '/home/me/.swarmdesk', fromEnv: false },
    apiKey,
    project: { workspace: '/w', trusted: false, via: 'none', ignored: [], hooks: [] }
  }
}

let root: Root | undefined
let requests: Array<{ channel: string; payload: any }>

beforeEach(() => {
  requests = []
  const api = {
    async request(channel: string, payload: unknown) {
      requests.push({ channel, payload })
      if (channel === 'settings.get')
        return viewWith({ source: 'none', storage: 'plainText', warning: 'NOT encrypted: accept to store anyway.' })
      if (channel === 'settings.setApiKey')
        return { source: 'keychain', storage: 'plainText', warning: 'NOT encrypted: accept to store anyway.' }
      throw new Error(`unexpected ${channel}`)
    },
    on: () => () => undefined
  } as unknown as WorkspaceApi
  setCommandApi(api)
})
afterEach(() => {
  act(() => root?.unmount())
  root = undefined
  document.body.innerHTML = ''
  setCommandApi(undefined)
  settingsStore.setState({ open: false, view: undefined, busy: false, error: undefined, notice: undefined })
})

/** Types into a React-controlled input as a person would. */
function type(input: HTMLInputElement, text: string): void {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text)
  input.dispatchEvent(new Event('input', { bubbles: true }))
}

const button = (name: string) => [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === name)!

describe('the API key in the Settings view', () => {
  it('stores a key on basic_text only once the person ticked the warning, and never shows the key again', async () => {
    const el = document.createElement('div')
    document.body.append(el)
    root = createRoot(el)
    await act(async () => root!.render(createElement(SettingsDialog)))
    await act(() => settingsCommands.open())
    expect(document.querySelector('[data-testid="api-key-warning"]')?.textContent).toContain('NOT encrypted')
    const input = document.querySelector<HTMLInputElement>('input[aria-label="API key"]')!
    await act(async () => type(input, 'sk-ant-typed-key'))
    expect(button('Store key').disabled).toBe(true)
    const accept = document.querySelector<HTMLInputElement>('[data-testid="settings-api-key"] input[type="checkbox"]')!
    await act(async () => accept.click())
    expect(button('Store key').disabled).toBe(false)
    await act(async () => button('Store key').click())
    expect(requests.at(-1)).toEqual({
      channel: 'settings.setApiKey',
      payload: { apiKey: 'sk-ant-typed-key', acceptUnencrypted: true }
    })
    expect(document.querySelector('[data-testid="api-key-source"]')?.textContent).toBe('stored in the OS keychain')
    expect(input.value).toBe('')
    expect(document.body.innerHTML).not.toContain('sk-ant-typed-key')
  })
})
