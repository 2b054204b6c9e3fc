import { describe, expect, it, vi } from 'vitest'
import { parseLaunchOptions } from './args'

vi.mock('electron', () => ({}))

describe('launch options', () => {
  it('takes the workspace from --cwd, resolved against the process cwd', () => {
    expect(
      parseLaunchOptions(
        ['.', '--cwd', 'repo', '--scenario=s.yaml', '--mcp-config', 'a.json', '--mcp-config=/etc/b.json'],
        {},
        '/home/u'
      )
    ).toEqual({
      cwd: '/home/u/repo',
      scenario: '/home/u/s.yaml',
      demo: false,
      mcpConfigFiles: ['/home/u/a.json', '/etc/b.json'],
      claudeSession: false
    })
  })

  it('opens a Claude Code session at start with --claude-session, and resolves --claude-path', () => {
    expect(parseLaunchOptions(['--claude-session', '--claude-path', 'bin/claude'], {}, '/home/u')).toMatchObject({
      claudeSession: true,
      claudePath: '/home/u/bin/claude'
    })
  })

  it('falls back to SWARMDESK_CWD, then the process cwd', () => {
    expect(parseLaunchOptions(['.'], { SWARMDESK_CWD: '/srv/ws' }, '/home/u').cwd).toBe('/srv/ws')
    expect(parseLaunchOptions(['.'], {}, '/home/u').cwd).toBe('/home/u')
  })

  it("ignores Electron's and Chromium's own switches", () => {
    expect(parseLaunchOptions(['--no-sandbox', '--enable-logging', '.', '--demo'], {}, '/w')).toEqual({
      cwd: '/w',
      scenario: undefined,
      demo: true,
      mcpConfigFiles: [],
      claudeSession: false
    })
  })
})
