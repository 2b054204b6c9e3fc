import { createHash } from 'node:crypto'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { nodeBundlePath } from '../../install/packageRoot'
import { WorkerCodeCache } from './codeCache'
import type { WorkerTeammateExecutor } from './executor'
import { until, useWorkerTestbed } from './worker.testkit'

describe("the worker bundle's V8 code cache", () => {
  const bed = useWorkerTestbed('swarmdesk-codecache')
  const executor = (codeCacheDir: string): WorkerTeammateExecutor => bed.executor({ codeCacheDir })

  /** Starts a spare (it loads the bundle) and waits until it reported on the code cache; returns the executor's cache. */
  async function loadSpare(e: WorkerTeammateExecutor, reports: number): Promise<WorkerCodeCache> {
    e.prewarm()
    expect(await e.whenSpareLoaded()).toBe(true)
    const cache = e.codeCache!
    await until(
      'the worker reported on the code cache',
      () => Object.values(cache.reports).reduce((a, b) => a + b, 0) >= reports
    )
    await e.releaseSpare()
    return cache
  }

  it('is written by the first worker of a build, used by the next ones, and replaced when V8 rejects it', async () => {
    const dir = join(bed.home, 'cache-a')
    const e = executor(dir)
    const bundle = nodeBundlePath('teammate-worker')
    const file = e.codeCache!.fileFor(bundle)
    expect(basename(file)).toMatch(/^teammate-worker-[0-9a-f]{32}\.v8cache$/)
    expect(existsSync(file)).toBe(false)

    // no cache yet: the worker compiles from source and offers one; the main thread writes it
    const cache = await loadSpare(e, 1)
    expect(cache.reports).toEqual({ used: 0, rejected: 0, absent: 1 })
    await until('the cache file', () => existsSync(file))
    const written = readFileSync(file)
    expect(written.byteLength).toBeGreaterThan(100_000)

    // the next worker deserialises it, and nothing is rewritten
    await loadSpare(e, 2)
    expect(cache.reports).toEqual({ used: 1, rejected: 0, absent: 1 })
    expect(readFileSync(file).equals(written)).toBe(true)

    // a cache V8 refuses (here: garbage of the same size) is rejected, the bundle still loads from
    // source, and a fresh cache replaces the bad one (in a new process: this one saved its file once)
    writeFileSync(file, Buffer.alloc(written.byteLength, 7))
    const e2 = executor(dir)
    const cache2 = await loadSpare(e2, 1)
    expect(cache2.reports).toEqual({ used: 0, rejected: 1, absent: 0 })
    await until('the bad cache replaced', () => readFileSync(file)[0] !== 7)
    expect(readdirSync(dir).filter((n) => n.endsWith('.v8cache'))).toEqual([basename(file)])
  }, 60_000)

  it('a cache damaged past its header (which V8 alone would deserialise, aborting the process) is rejected by its hash, and replaced', async () => {
    const dir = join(bed.home, 'cache-damaged')
    await loadSpare(executor(dir), 1)
    const file = readdirSync(dir).find((n) => n.endsWith('.v8cache'))!
    const good = readFileSync(join(dir, file))
    // the tester's damage: garbage written into the middle of the bytecode, header intact
    const damaged = Buffer.from(good)
    damaged.write('GARBAGE'.repeat(600), Math.floor(good.length / 2), 'latin1')
    writeFileSync(join(dir, file), damaged)
    const e = executor(dir)
    const cache = await loadSpare(e, 1)
    expect(cache.reports).toEqual({ used: 0, rejected: 1, absent: 0 })
    await until('the damaged cache replaced', () => !readFileSync(join(dir, file)).equals(damaged))
    // and this process is alive to say so; the next worker uses the new file
    await loadSpare(e, 2)
    expect(cache.reports.used).toBe(1)
  }, 60_000)

  it('a teammate runs its turn in a worker that loaded the bundle from the cache', async () => {
    const dir = join(bed.home, 'cache-b')
    await loadSpare(executor(dir), 1)
    await until('the cache file', () => readdirSync(dir).some((n) => n.endsWith('.v8cache')))
    // no spare: the refill after alice's start would load the bundle once more and report it too
    const e = bed.executor({ codeCacheDir: dir, warmSpare: false })

    const [config] = await bed.prepareTeam(
      'cached',
      { alice: [{ text: 'Ready from the cache.' }] },
      'Say that you are ready.'
    )
    const handle = await e.spawn(config!)
    await until('alice idle after her turn', () => bed.allIdle('cached', ['alice']))
    expect(e.codeCache!.reports.used).toBe(1)
    await e.kill(config!.agentId)
    expect((await handle.exited).status).toBe('killed')
  }, 60_000)

  it('keys files by the bundle content, not its length (V8 checks only the length), and a new build replaces the old files', () => {
    const dir = join(bed.home, 'cache-c')
    const builds = mkdtempSync(join(tmpdir(), 'swarmdesk-codecache-builds-'))
    try {
      const bundle = join(builds, 'teammate-worker.cjs')
      writeFileSync(bundle, 'module.exports = 1\n')
      const cache = new WorkerCodeCache(dir)
      const first = cache.fileFor(bundle)
      expect(cache.save(bundle, new Uint8Array([1, 2, 3]))).toBe(true)
      expect(cache.save(bundle, new Uint8Array([4, 5, 6]))).toBe(false) // once per process and file
      // same length, other content, a later mtime: another key
      writeFileSync(bundle, 'module.exports = 2\n')
      const later = statSync(bundle).mtimeMs + 1000
      utimesSync(bundle, later / 1000, later / 1000)
      const second = cache.fileFor(bundle)
      expect(second).not.toBe(first)
      expect(cache.save(bundle, new Uint8Array([7]))).toBe(true)
      expect(readdirSync(dir)).toEqual([basename(second)])
      // the file: SHA-256 of the data, then the data
      expect(readFileSync(second)).toEqual(
        Buffer.concat([
          createHash('sha256')
            .update(Buffer.from([7]))
            .digest(),
          Buffer.from([7])
        ])
      )
    } finally {
      rmSync(builds, { recursive: true, force: true })
    }
  })

  it('a cache directory that cannot be written costs only the cache: the bundle loads from source', async () => {
    if (process.getuid?.() === 0) {
      // root ignores directory permissions: make the directory a file instead
      const blocked = join(bed.home, 'blocked')
      writeFileSync(blocked, 'not a directory')
      const cache = await loadSpare(executor(join(blocked, 'v8')), 1)
      expect(cache.reports.absent).toBe(1)
      expect(cache.save(nodeBundlePath('teammate-worker'), new Uint8Array([1]))).toBe(false)
      return
    }
    const parent = join(bed.home, 'read-only')
    mkdirSync(parent)
    chmodSync(parent, 0o500)
    const cache = await loadSpare(executor(join(parent, 'v8')), 1)
    expect(cache.reports.absent).toBe(1)
    expect(existsSync(join(parent, 'v8'))).toBe(false)
  }, 30_000)
})
