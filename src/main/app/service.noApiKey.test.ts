import { execFileSync } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../shared/events'
import type { PushChannel, WorkspaceSnapshot } from '../../shared/ipc'
import { ApiKeyHolder } from '../runtime/model/apiKey'
import { startScriptedServer, type ScriptedServer } from '../runtime/scripted'
import { WorkspaceService } from './service'

/**
 * Issue 29 item 8, the runtime: a workspace opens without an API key against a real endpoint (a
 * scripted server used as any Anthropic-compatible one, through ANTHROPIC_BASE_URL, no scenario):
 * the no-key state in the snapshot, what needs no model working, a prompt refused with the way to
 * add a key, and a key set for this run used at once, never answered back.
 */
const KEY = 'sk-ant-test-run-key-41d2'
let home: string
let work: string
let server: ScriptedServer
let service: WorkspaceService | undefined
let pushes: Array<{ channel: PushChannel; payload: any }>

beforeEach(async () => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-home-')))
  work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-work-')))
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
  server = await startScriptedServer({
    scenario: { apiKey: KEY, agents: { '*': [{ text: 'Answered with the run key.' }] } } as never
  })
  pushes = []
})
afterEach(async () => {
  await service?.dispose()
  service = undefined
  await server.close()
  rmSync(home, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
})

const events = (): RuntimeEvent[] => pushes.filter((p) => p.channel === 'runtime.event').map((p) => p.payload)

describe('a workspace without an API key', () => {
  it('opens, keeps the task board working, refuses a prompt clearly, and runs once a key is set for this run', async () => {
    const apiKey = new ApiKeyHolder()
    service = await WorkspaceService.start({
      cwd: work,
      home,
      env: { ANTHROPIC_BASE_URL: server.url },
      apiKey,
      mode: 'bypassPermissions'
    })
    service.onPush((channel, payload) => pushes.push({ channel, payload }))
    const snap = (await service.handle('workspace.snapshot', {})) as WorkspaceSnapshot
    expect(snap.modelAccess?.noApiKey).toMatchObject({
      fix: 'environment',
      message: expect.stringContaining('ANTHROPIC_API_KEY')
    })
    await expect(service.handle('leader.prompt', { text: 'hello' })).rejects.toThrow(
      /A prompt needs a model\. No API key is set/
    )
    await expect(service.handle('teammate.spawn', { name: 'alice', prompt: 'hi' })).rejects.toThrow(/needs a model/)
    expect(server.requests()).toHaveLength(0)
    // no model needed: the board takes a task
    await service.handle('tasks.create', { subject: 'Write the README' })
    expect(JSON.stringify(await service.handle('tasks.list', {}))).toContain('Write the README')

    const status = await service.handle('settings.setRunApiKey', { apiKey: KEY })
    expect(status).toMatchObject({ source: 'run', storage: 'environmentOnly' })
    expect(JSON.stringify(status)).not.toContain(KEY)
    expect(pushes.find((p) => p.channel === 'model.access')?.payload).toEqual({})
    expect(((await service.handle('workspace.snapshot', {})) as WorkspaceSnapshot).modelAccess).toEqual({})

    await service.handle('leader.prompt', { text: 'hello' })
    await service.whenIdle()
    expect(events().some((e) => e.type === 'assistant_text' && e.text === 'Answered with the run key.')).toBe(true)
    expect(server.requests().map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`])
    expect(JSON.stringify(pushes)).not.toContain(KEY)
  })

  it('the environment key wins: a key for this run is refused while ANTHROPIC_API_KEY is set', async () => {
    service = await WorkspaceService.start({
      cwd: work,
      home,
      env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: KEY },
      apiKey: new ApiKeyHolder()
    })
    expect(((await service.handle('workspace.snapshot', {})) as WorkspaceSnapshot).modelAccess).toEqual({})
    await expect(service.handle('settings.setRunApiKey', { apiKey: 'other' })).rejects.toThrow(
      /ANTHROPIC_API_KEY is set in the environment/
    )
  })
})
