import { describe, expect, it, vi } from 'vitest'
import { createAppOrigin } from './origin'

vi.mock('electron', () => ({}))

describe('the app origin', () => {
  const origin = createAppOrigin('/opt/swarmdesk/out/renderer/index.html')

  it('is the built index.html, with any hash or query', () => {
    expect(origin.entryUrl).toBe('file:///opt/swarmdesk/out/renderer/index.html')
    expect(origin.isAppUrl('file:///opt/swarmdesk/out/renderer/index.html#/tasks')).toBe(true)
  })

  it.each([
    'file:///opt/swarmdesk/out/renderer/other.html',
    'file:///opt/swarmdesk/out/renderer/index.html/../../../etc/passwd',
    'file://remote-host/opt/swarmdesk/out/renderer/index.html',
    'https://opt/swarmdesk/out/renderer/index.html',
    'about:blank',
    'not a url'
  ])('is not %s', (url) => {
    expect(origin.isAppUrl(url)).toBe(false)
  })

  it('is the dev server origin in development, and refuses a non-http one', () => {
    const dev = createAppOrigin('/x/index.html', 'http://localhost:5173')
    expect(dev.isAppUrl('http://localhost:5173/src/main.tsx')).toBe(true)
    expect(dev.isAppUrl('http://127.0.0.1:5173/')).toBe(false)
    expect(() => createAppOrigin('/x/index.html', 'file:///x')).toThrow(TypeError)
  })
})
