import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { resolveModel } from '../model/pricing'
import { loadPermissionSettings } from '../permissions'
import { loadSubagentWiring } from '../subagents/wiring'
import { envWithSettings, teammateModelSetting } from './roleSettings'

let home: string
let work: string
beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-roles-home-')))
  work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-roles-work-')))
})
afterEach(() => {
  rmSync(home, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
})

async function settingsWith(user: object) {
  writeFileSync(join(home, 'settings.json'), JSON.stringify(user))
  return loadPermissionSettings({ cwd: work, home })
}

describe('models per role and the auto-background delay from settings', () => {
  it('fills the variables the runtime reads where the environment sets none', async () => {
    const settings = await settingsWith({ model: 'haiku', subagentModel: 'opus', autoBackgroundSeconds: 7.5 })
    expect(envWithSettings({ PATH: '/bin' }, settings)).toEqual({
      PATH: '/bin',
      SWARMDESK_MODEL: 'haiku',
      SWARMDESK_SUBAGENT_MODEL: 'opus',
      SWARMDESK_AUTO_BACKGROUND_MS: '7500'
    })
  })

  it('lets a variable the person set win over the settings file', async () => {
    const settings = await settingsWith({ model: 'haiku', subagentModel: 'opus', autoBackgroundSeconds: 0 })
    const env = { SWARMDESK_MODEL: 'sonnet', SWARMDESK_SUBAGENT_MODEL: 'sonnet', SWARMDESK_AUTO_BACKGROUND_MS: '5' }
    expect(envWithSettings(env, settings)).toEqual(env)
  })

  it("forces every teammate's model, leaving subagents to their own precedence", async () => {
    const settings = await settingsWith({ teammateModel: 'haiku' })
    expect(teammateModelSetting(settings)).toBe('haiku')
    const wiring = await loadSubagentWiring({ cwd: work, home, env: {}, teammateModel: teammateModelSetting(settings) })
    const definition = wiring.subagents.definitions().get('general-purpose')!
    expect(wiring.subagents.resolveTeammateModel!(definition, 'opus', 'parent-model').model).toBe(resolveModel('haiku'))
    expect(wiring.subagents.resolveModel(definition, 'opus', 'parent-model').model).toBe(resolveModel('opus'))
    const without = await loadSubagentWiring({ cwd: work, home, env: {} })
    expect(without.subagents.resolveTeammateModel).toBeUndefined()
  })

  it('takes MCP_TIMEOUT and MCP_TOOL_TIMEOUT from the settings’ env block, the environment winning', async () => {
    const settings = await settingsWith({ env: { MCP_TIMEOUT: '5000', MCP_TOOL_TIMEOUT: '300000', OTHER: 'x' } })
    expect(envWithSettings({}, settings)).toEqual({ MCP_TIMEOUT: '5000', MCP_TOOL_TIMEOUT: '300000' })
    expect(envWithSettings({ MCP_TOOL_TIMEOUT: '1000' }, settings)).toEqual({
      MCP_TIMEOUT: '5000',
      MCP_TOOL_TIMEOUT: '1000'
    })
  })
})
