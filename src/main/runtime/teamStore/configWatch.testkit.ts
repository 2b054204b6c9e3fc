import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startChild } from '../tasks/children.testkit'
import { bundleEntry } from '../../testkit/bundleEntry.testkit'
import type { TeamConfigChange } from '../teams'
import type { ContractTarget } from './contract.testkit'
import { openTeamStore } from './open'
import type { TeamStorePort } from './port'

const lead = { name: 'team-lead', agentType: 'team-lead', model: 'm', backendType: 'main' as const, cwd: '/w' }

let seq = 0
const fresh = (): string => `cw${process.pid}-${++seq}`

/** Resolves once `check` holds, polling every 20 ms for up to 30 s (the machine may be loaded). */
export async function until(what: string, check: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(20)
  }
}

/** The allowed paths each `updated` change carried, in order, and `deleted` for a deletion. */
export const pathsSeen = (seen: TeamConfigChange[]): (string[] | 'deleted')[] =>
  seen.map((c) => (c.type === 'deleted' ? 'deleted' : c.config.allowedPaths))

/**
 * The config watch's contract (`TeamConfigPort.watch`, docs/nats.md#team-config), registered as
 * vitest tests against the transport `target()` returns (called in beforeAll): a change made by
 * another process reaches the watcher, a disposed watcher hears nothing more, a deleted team is
 * reported. Real processes make the changes.
 */
export function configWatchContract(target: () => Promise<ContractTarget>): void {
  let t: ContractTarget
  let store: TeamStorePort
  let entry: string
  const child = (command: object) => startChild(entry, { home: t.home, transport: t.transport, ...command })

  beforeAll(async () => {
    t = await target()
    store = await openTeamStore(t.home, t.transport)
    entry = await bundleEntry(
      join(__dirname, 'storeChild.testkit.ts'),
      join(mkdtempSync(join(tmpdir(), 'swarmdesk-store-child-')), 'child.mjs')
    )
  }, 60_000)
  afterAll(async () => {
    await store?.close()
  })

  it('tells a config watcher of a change made by another process, and of the team deleted there', async () => {
    const team = fresh()
    await store.config.create({ name: team, lead })
    const seen: TeamConfigChange[] = []
    const watch = store.config.watch(team, (c) => seen.push(c))
    await watch.ready
    try {
      await child({ op: 'allow', team, path: '/srv/shared' }).lines
      await until('the change made by another process', () => seen.length > 0)
      expect(seen[0]).toMatchObject({ type: 'updated', team, config: { name: team, allowedPaths: ['/srv/shared'] } })
      await child({ op: 'deleteTeam', team }).lines
      await until('the deletion', () => seen.some((c) => c.type === 'deleted'))
      expect(pathsSeen(seen)).toEqual([['/srv/shared'], 'deleted'])
      // made again: reported again
      await store.config.create({ name: team, lead })
      await until('the team made again', () => seen.length === 3)
      expect(seen[2]).toMatchObject({ type: 'updated', config: { allowedPaths: [] } })
    } finally {
      watch.dispose()
    }
  })

  it('tells a disposed watcher nothing more, while another watcher of the same team hears on', async () => {
    const team = fresh()
    await store.config.create({ name: team, lead })
    const other = await openTeamStore(t.home, t.transport)
    const stopped: TeamConfigChange[] = []
    const live: TeamConfigChange[] = []
    const first = store.config.watch(team, (c) => stopped.push(c))
    const second = other.config.watch(team, (c) => live.push(c))
    try {
      await Promise.all([first.ready, second.ready])
      await child({ op: 'allow', team, path: '/a' }).lines
      await until('both watchers told', () => stopped.length === 1 && live.length === 1)
      first.dispose()
      await child({ op: 'allow', team, path: '/b' }).lines
      await until('the live watcher told', () => pathsSeen(live).at(-1)?.length === 2)
      await child({ op: 'allow', team, path: '/c' }).lines
      await until('the live watcher told again', () => pathsSeen(live).at(-1)?.length === 3)
      // a moment more for anything in flight to the disposed one
      await sleep(200)
      expect(pathsSeen(stopped)).toEqual([['/a']])
      expect(pathsSeen(live)).toEqual([['/a'], ['/a', '/b'], ['/a', '/b', '/c']])
    } finally {
      first.dispose()
      second.dispose()
      await other.close()
    }
  })

  it('reports the deletion to a watcher of a team whose config goes through this very store', async () => {
    const team = fresh()
    await store.config.create({ name: team, lead })
    const seen: TeamConfigChange[] = []
    const watch = store.config.watch(team, (c) => seen.push(c))
    await watch.ready
    try {
      await store.config.update(team, (c) => ({ ...c, description: 'changed' }))
      // (the files report the state they read when told: a change undone at once may be unseen)
      await until('the change', () => seen.length === 1)
      await store.config.delete(team)
      await until('the deletion', () => seen.some((c) => c.type === 'deleted'))
      expect(seen.map((c) => c.type)).toEqual(['updated', 'deleted'])
      expect(seen[0]).toMatchObject({ config: { description: 'changed' } })
    } finally {
      watch.dispose()
    }
  })
}
