import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WorkspaceService } from '../app/service'
import { RecentWorkspaces } from '../workspaces/recent'
import { tokenCookieName } from './auth'
import { writeStaticTree } from './hostFixture.testkit'
import { FrameLog, httpGet, openSocket } from './host.testkit'
import { startWebHost, type WebHost } from './webHost'
import { WebWorkspaces, workspaceId } from './workspaces'

// Two real workspaces behind one web host, each with its own scripted leader (docs/model.md#model-access), reached
// by tabs whose sockets name their workspace (`/bridge?workspace=ID`).

let root: string
let home: string
let repoA: string
let repoB: string
let set: WebWorkspaces
let host: WebHost
let idA: string
const started: string[] = []

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-web-workspaces-')))
  home = join(root, 'home')
  repoA = join(root, 'alpha')
  repoB = join(root, 'beta')
  for (const repo of [repoA, repoB]) execFileSync('git', ['init', '-q', repo])
  writeFileSync(
    join(root, 'scenario.json'),
    JSON.stringify({ agents: { 'team-lead': [{ text: 'Hello from the scripted leader.' }] } })
  )
  set = new WebWorkspaces({
    recent: new RecentWorkspaces(home),
    startService: (folder) => {
      started.push(folder)
      return WorkspaceService.start({ cwd: folder, home, scenario: join(root, 'scenario.json'), env: {} })
    },
    log: () => undefined
  })
  idA = (await set.open(repoA)).id
  const { staticDir } = writeStaticTree(join(root, 'static'))
  host = await startWebHost({ service: set.bridged(idA)!, workspaces: (id) => set.bridged(id), staticDir, port: 0 })
}, 60_000)
afterAll(async () => {
  await host?.close()
  await set?.dispose()
  rmSync(root, { recursive: true, force: true })
})

async function connect(query: string) {
  const attempt = await openSocket(host.port, `/bridge?token=${host.token}${query}`)
  if (attempt.kind !== 'open') throw new Error(`bridge refused: ${attempt.status}`)
  let id = 100
  const log = new FrameLog(attempt.socket)
  return {
    socket: attempt.socket,
    log,
    async request(channel: string, payload: unknown): Promise<any> {
      const n = ++id
      attempt.socket.send(JSON.stringify({ kind: 'request', id: n, channel, payload }))
      return log.next((f) => f.kind === 'response' && f.id === n)
    }
  }
}

describe('web host with several workspaces', () => {
  it('opens a second folder from a tab, answers its page URL, and reuses the service when it is opened again', async () => {
    const a = await connect('')
    const opened = await a.request('workspaces.open', { path: repoB })
    expect(opened).toMatchObject({
      ok: true,
      result: { opened: true, path: repoB, alreadyOpen: false, url: `/?workspace=${workspaceId(repoB)}` }
    })
    const again = await a.request('workspaces.open', { path: `${repoB}/` })
    expect(again.result).toMatchObject({ opened: true, path: repoB, alreadyOpen: true })
    expect(started).toEqual([repoA, repoB])
    expect(set.list().map((w) => w.folder)).toEqual([repoA, repoB])
    const menu = await a.request('workspaces.menu', {})
    expect(menu.result).toMatchObject({
      current: repoA,
      picker: 'path',
      recent: [
        { path: repoB, missing: false },
        { path: repoA, missing: false }
      ]
    })
    a.socket.close()
  })

  it('refuses a path that is missing, a file, relative, or absent (no picker here), with messages that say what to do', async () => {
    const a = await connect('')
    writeFileSync(join(root, 'a-file'), 'x')
    expect(await a.request('workspaces.open', { path: join(root, 'nope') })).toMatchObject({
      ok: false,
      error: {
        name: 'NotAFolderError',
        message: `${join(root, 'nope')} does not exist: check the path, or create the folder first.`
      }
    })
    expect(await a.request('workspaces.open', { path: join(root, 'a-file') })).toMatchObject({
      ok: false,
      error: { name: 'NotAFolderError', message: expect.stringContaining('is a file, not a folder') }
    })
    expect(await a.request('workspaces.open', { path: 'beta' })).toMatchObject({
      ok: false,
      error: { name: 'NotAFolderError', message: expect.stringContaining('not an absolute path') }
    })
    expect(await a.request('workspaces.open', {})).toMatchObject({
      ok: false,
      error: { name: 'WorkspacePathRequiredError', message: expect.stringContaining('type the absolute path') }
    })
    expect(await a.request('workspaces.open', { path: 7 })).toMatchObject({
      ok: false,
      error: { name: 'IpcRequestError', message: expect.stringContaining("Bad payload for 'workspaces.open'") }
    })
    expect(set.list()).toHaveLength(2)
    a.socket.close()
  })

  it("binds each tab's socket to its workspace: snapshots are its own, and a leader run is seen only by its workspace's sockets", async () => {
    const idB = workspaceId(repoB)
    const a = await connect('')
    const aById = await connect(`&workspace=${idA}`)
    const b = await connect(`&workspace=${idB}`)
    expect((await a.request('workspace.snapshot', {})).result.cwd).toBe(repoA)
    expect((await aById.request('workspace.snapshot', {})).result.cwd).toBe(repoA)
    expect((await b.request('workspace.snapshot', {})).result.cwd).toBe(repoB)
    expect((await b.request('workspaces.menu', {})).result.current).toBe(repoB)

    expect(await b.request('leader.prompt', { text: 'Say hello in beta.' })).toMatchObject({ ok: true })
    const said = (f: any) =>
      f.kind === 'push' &&
      f.channel === 'runtime.event' &&
      f.payload.type === 'assistant_text' &&
      f.payload.text === 'Hello from the scripted leader.'
    await b.log.next(said)
    await b.log.next(
      (f) =>
        f.kind === 'push' &&
        f.channel === 'pane.data' &&
        f.payload.agentId === 'team-lead' &&
        String(f.payload.data).includes('Hello from the scripted leader.')
    )
    await (set.service(idB) as WorkspaceService).whenIdle()
    // a's service ran nothing, so a's sockets got no push at all from b's run
    expect(a.log.frames.filter((f: any) => f.kind === 'push')).toEqual([])
    expect(aById.log.frames.filter((f: any) => f.kind === 'push')).toEqual([])
    expect(
      (await a.request('workspace.snapshot', {})).result.agents.find((x: any) => x.agentId === 'team-lead')?.usage
        .outputTokens
    ).toBe(0)
    expect(
      (await b.request('workspace.snapshot', {})).result.agents.find((x: any) => x.agentId === 'team-lead')?.usage
        .outputTokens
    ).toBeGreaterThan(0)
    for (const c of [a, aById, b]) c.socket.close()
  })

  it('enforces the token and Origin for every workspace, checked before the workspace is looked up', async () => {
    const idB = workspaceId(repoB)
    for (const id of [idA, idB, 'unknown']) {
      expect(await openSocket(host.port, `/bridge?workspace=${id}`)).toEqual({ kind: 'refused', status: 401 })
      expect(await openSocket(host.port, `/bridge?workspace=${id}&token=wrong`)).toEqual({
        kind: 'refused',
        status: 401
      })
      expect(
        await openSocket(host.port, `/bridge?workspace=${id}&token=${host.token}`, { Origin: 'http://evil.example' })
      ).toEqual({ kind: 'refused', status: 403 })
      expect((await httpGet(host.port, `/?workspace=${id}`)).status).toBe(401)
    }
    expect(await openSocket(host.port, `/bridge?workspace=unknown&token=${host.token}`)).toEqual({
      kind: 'refused',
      status: 404
    })
    const unknownPage = await httpGet(host.port, `/?workspace=unknown&token=${host.token}`)
    expect(unknownPage.status).toBe(404)
    expect(unknownPage.body).toContain("No open workspace 'unknown'")
    const byCookie = await openSocket(host.port, `/bridge?workspace=${idB}`, {
      Cookie: `${tokenCookieName(host.port)}=${host.token}`,
      Origin: `http://127.0.0.1:${host.port}`
    })
    expect(byCookie.kind).toBe('open')
    if (byCookie.kind === 'open') byCookie.socket.close()
    expect(
      (await httpGet(host.port, `/?workspace=${idB}`, { Cookie: `${tokenCookieName(host.port)}=${host.token}` })).status
    ).toBe(200)
  })

  it('records every opened folder in the recent list, most recent first', async () => {
    mkdirSync(join(root, 'gamma'))
    const a = await connect('')
    await a.request('workspaces.open', { path: join(root, 'gamma') })
    expect((await new RecentWorkspaces(home).list()).map((e) => e.name)).toEqual(['gamma', 'beta', 'alpha'])
    a.socket.close()
  })
})
