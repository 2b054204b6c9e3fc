import { execFileSync } from 'node:child_process'
import { mkdtempSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { until, pidsWithCommandLine } from '../runtime/pty/pty.testkit'
import { IpcRequestError, WorkspaceService } from './service'
import { MAX_REMEMBERED_PANE_SIZES, PaneSizes } from './paneSizes'

/**
 * `pane.resize` against the real runtime: the scripted model server and a real `swarmdesk
 * teammate` process in a real PTY, whose terminal size is read from the kernel.
 */

let home: string
let work: string
let service: WorkspaceService
/** Unique, so this suite's teammate process is told apart from any other suite's. */
const team = `sized-${Math.random().toString(36).slice(2, 8)}`

beforeAll(async () => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-home-')))
  work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-work-')))
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
  const scenario = join(home, 's.yaml')
  writeFileSync(scenario, `agents:\n  "type:general-purpose":\n    - text: "Hello."\n    - text: ""\n    - text: ""\n`)
  service = await WorkspaceService.start({ cwd: work, home, scenario, env: {}, mode: 'bypassPermissions' })
})
afterAll(async () => {
  await service?.dispose()
  rmSync(home, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
})

/** The kernel's size (`rows cols`) of the terminal the teammate's Node process writes to. */
function terminalSizeOf(pid: number): string {
  return execFileSync('stty', ['-F', readlinkSync(`/proc/${pid}/fd/1`), 'size'], { encoding: 'utf8' }).trim()
}

describe("WorkspaceService 'pane.resize'", () => {
  it('refuses a bad size with what is allowed, and accepts any agent, known or not', async () => {
    const refused = (payload: object) => service.handle('pane.resize', payload)
    await expect(refused({ agentId: 'team-lead', cols: 0, rows: 24 })).rejects.toThrow(IpcRequestError)
    await expect(refused({ agentId: 'team-lead', cols: 0, rows: 24 })).rejects.toThrow(
      /Bad payload for 'pane\.resize': cols: cols must be at least 1/
    )
    await expect(refused({ agentId: 'team-lead', cols: 80, rows: 1001 })).rejects.toThrow(
      /rows: rows must be at most 1000/
    )
    await expect(refused({ agentId: 'team-lead', cols: 2001, rows: 24 })).rejects.toThrow(
      /cols: cols must be at most 2000/
    )
    await expect(refused({ agentId: 'team-lead', cols: 80, rows: 2.5 })).rejects.toThrow(
      /rows: rows must be a whole number of rows/
    )
    await expect(refused({ agentId: 'team-lead', cols: 80 })).rejects.toThrow(/rows: /)
    await expect(refused({ agentId: 'team-lead', cols: 80, rows: 24, extra: 1 })).rejects.toThrow(/extra/)
    // the leader has no terminal of its own; an unknown id may be a pane whose agent starts later
    expect(await service.handle('pane.resize', { agentId: 'team-lead', cols: 100, rows: 30 })).toEqual({ ok: true })
    expect(await service.handle('pane.resize', { agentId: 'nobody@nowhere', cols: 100, rows: 30 })).toEqual({
      ok: true
    })
    // main's copy of each pane follows it: the scrollback is serialized at the page's size
    expect(await service.handle('pane.scrollback', { agentId: 'team-lead' })).toMatchObject({ cols: 100, rows: 30 })
    expect(await service.handle('pane.scrollback', { agentId: 'nobody@nowhere' })).toMatchObject({
      cols: 100,
      rows: 30
    })
  })

  it("starts a process teammate at its pane's size sent before it existed, and resizes it while it runs", async () => {
    expect(await service.handle('team.create', { name: team })).toEqual({ team })
    const agentId = `alice@${team}`
    expect(await service.handle('pane.resize', { agentId, cols: 91, rows: 27 })).toEqual({ ok: true })
    expect(
      await service.handle('teammate.spawn', { name: 'alice', prompt: 'Say hello.', backend: 'process' })
    ).toMatchObject({ agentId, backend: 'process' })
    const [pid] = await until('its Node process', () => {
      const found = pidsWithCommandLine(`teammate --team ${team} `).filter(
        (p) => !readlinkSync(`/proc/${p}/exe`).endsWith('bash')
      )
      return found.length > 0 && found
    })
    expect(terminalSizeOf(pid!)).toBe('27 91')
    expect(await service.handle('pane.resize', { agentId, cols: 150, rows: 44 })).toEqual({ ok: true })
    expect(terminalSizeOf(pid!)).toBe('44 150')
    expect(await service.handle('pane.scrollback', { agentId })).toMatchObject({ cols: 150, rows: 44 })
    await service.handle('teammate.kill', { name: 'alice' })
    // gone: remembered, nothing left to resize
    expect(await service.handle('pane.resize', { agentId, cols: 60, rows: 20 })).toEqual({ ok: true })
  }, 60_000)
})

describe('PaneSizes', () => {
  it('keeps the last size per pane and forgets the one reported longest ago past its bound', () => {
    const sizes = new PaneSizes()
    sizes.remember('a', { cols: 80, rows: 24 })
    for (let i = 0; i < MAX_REMEMBERED_PANE_SIZES - 1; i++) sizes.remember(`x${i}`, { cols: 10, rows: 10 })
    // reported again: now the most recent
    sizes.remember('a', { cols: 81, rows: 25 })
    sizes.remember('b', { cols: 90, rows: 30 })
    expect(sizes.size).toBe(MAX_REMEMBERED_PANE_SIZES)
    expect(sizes.get('a')).toEqual({ cols: 81, rows: 25 })
    expect(sizes.get('x0')).toBeUndefined()
    expect(sizes.get('b')).toEqual({ cols: 90, rows: 30 })
  })
})
