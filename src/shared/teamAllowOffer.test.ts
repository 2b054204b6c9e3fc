import { describe, expect, it } from 'vitest'
import { teamAllowDirOf } from './teamAllowOffer'

const ask = (tool: string, input: unknown, agentId = 'wally@crew', cwd?: string) => ({
  agentId,
  tool,
  input,
  ...(cwd ? { cwd } : {})
})

describe('"Allow for the team in <dir>" (docs/teams.md#allowed-paths)', () => {
  it("offers the folder of a teammate's file outside the workspace", () => {
    expect(teamAllowDirOf(ask('Write', { file_path: '/srv/shared/a.md' }), 'crew', '/work/app')).toBe('/srv/shared')
    expect(teamAllowDirOf(ask('Read', { file_path: '/srv/x/../shared/./b' }), 'crew', '/work/app')).toBe('/srv/shared')
    expect(teamAllowDirOf(ask('NotebookEdit', { notebook_path: '../other/n.ipynb' }), 'crew', '/work/app')).toBe(
      '/work/other'
    )
    // relative to the asking agent's folder when known
    expect(teamAllowDirOf(ask('Edit', { file_path: '../x/f' }, 'wally@crew', '/tmp/wt'), 'crew', '/work/app')).toBe(
      '/tmp/x'
    )
    // a sibling whose name starts like the workspace is outside it
    expect(teamAllowDirOf(ask('Write', { file_path: '/work/app2/f' }), 'crew', '/work/app')).toBe('/work/app2')
  })

  it('offers nothing inside the workspace, at /, for the leader, another team, other tools or no path', () => {
    expect(teamAllowDirOf(ask('Write', { file_path: '/work/app/src/f' }), 'crew', '/work/app')).toBeUndefined()
    expect(teamAllowDirOf(ask('Write', { file_path: 'f' }), 'crew', '/work/app')).toBeUndefined()
    expect(teamAllowDirOf(ask('Write', { file_path: '/f' }), 'crew', '/work/app')).toBeUndefined()
    expect(teamAllowDirOf(ask('Write', { file_path: '/srv/f' }, 'team-lead'), 'crew', '/work/app')).toBeUndefined()
    expect(teamAllowDirOf(ask('Write', { file_path: '/srv/f' }, 'wally@other'), 'crew', '/work/app')).toBeUndefined()
    expect(teamAllowDirOf(ask('Write', { file_path: '/srv/f' }), undefined, '/work/app')).toBeUndefined()
    expect(teamAllowDirOf(ask('Bash', { command: 'touch /srv/f' }), 'crew', '/work/app')).toBeUndefined()
    expect(teamAllowDirOf(ask('Write', {}), 'crew', '/work/app')).toBeUndefined()
    expect(teamAllowDirOf(ask('Write', null), 'crew', '/work/app')).toBeUndefined()
  })
})
