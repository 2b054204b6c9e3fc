import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs'
import { basename, extname, join } from 'node:path'
import { writeFileAtomicSync } from '../../locks'

/**
 * How the worker teammate bundle (`out/node/teammate-worker.cjs`) begins: it is built as the body
 * of Node's CommonJS wrapper function, closed by `})` at its end (scripts/build-node.mjs keeps the
 * same string), so the bootstrap compiles the file as read, without a wrapped second copy of its
 * source (docs/teams.md#worker-teammate-memory).
 */
export const WORKER_BUNDLE_WRAPPER = '(function (exports, require, module, __filename, __dirname) {'

/**
 * What a worker's bootstrap reports on its `parentPort` after it compiled the bundle: whether the
 * code cache it was given was `used`, `rejected` by V8 (another V8 build or other V8 flags), or
 * `absent`; with `data`, a fresh cache (V8's `script.createCachedData()`, taken after the bundle's
 * top level ran, so it holds the functions the start-up compiled) for the main thread to save.
 */
export interface CodeCacheReport {
  type: 'codeCache'
  status: 'used' | 'rejected' | 'absent'
  data?: Uint8Array
}

/** True when `raw` (a worker's `parentPort` message) is a {@link CodeCacheReport}. */
export function isCodeCacheReport(raw: unknown): raw is CodeCacheReport {
  const r = raw as Partial<CodeCacheReport> | null
  return (
    typeof r === 'object' &&
    r !== null &&
    r.type === 'codeCache' &&
    (r.status === 'used' || r.status === 'rejected' || r.status === 'absent')
  )
}

/** Where a data directory (SWARMDESK_HOME) keeps the worker bundle's code cache: `<home>/cache/v8`. */
export function codeCacheDirOf(home: string): string {
  return join(home, 'cache', 'v8')
}

/** Prefix of the cache files of one bundle: `<bundle name>-`; the rest of the name is the key. */
function prefixOf(bundlePath: string): string {
  return `${basename(bundlePath, extname(bundlePath))}-`
}

const SUFFIX = '.v8cache'
/** Version of the file layout (hash, then data), part of the key: a file of another layout is never read. */
const CACHE_FORMAT = 'sha256+data/1'

/**
 * The V8 code cache of the worker teammate bundle, on disk under `dir` (by default
 * `<SWARMDESK_HOME>/cache/v8`). A worker that compiles the 3.4 MB bundle from source spends about
 * half its start-up parsing it; with the cache it deserialises the bytecode instead (bench/teammates
 * reports spawn→ready with and without it).
 *
 * One file per bundle build and runtime: `<bundle>-<key>.v8cache`, the key being the SHA-256 of
 * the bundle's bytes, `process.versions.v8`, the architecture and `process.execArgv`. V8 itself
 * checks only its version, its flags and the source's length before using a cache, so a rebuilt
 * bundle of the same length would otherwise run stale bytecode: the content hash rules that out.
 * Files are written whole (temp file and rename) by the main thread only, from the data a worker
 * posts; a new build's file replaces the older builds' files of the same bundle. A file is the
 * SHA-256 of the cache data (32 bytes), then the data: V8 checks only a cache's header, and
 * deserialising damaged bytecode aborts the whole process (not just the worker), so a worker uses
 * the data only when the hash matches, and reports the file `rejected` otherwise.
 */
export class WorkerCodeCache {
  /** How many workers of this process reported each status (diagnostics and tests). */
  readonly reports: Record<CodeCacheReport['status'], number> = { used: 0, rejected: 0, absent: 0 }
  private readonly keys = new Map<string, { size: number; mtimeMs: number; file: string }>()
  private readonly saved = new Set<string>()

  /** @param dir the cache directory, created on the first save. */
  constructor(readonly dir: string) {}

  /**
   * The cache file for `bundlePath` in this process (it may not exist yet). The key is computed
   * once per bundle build (size and mtime unchanged), about 10 ms for the bundle.
   * @throws the file system's error when the bundle cannot be read.
   */
  fileFor(bundlePath: string): string {
    const stat = statSync(bundlePath)
    const known = this.keys.get(bundlePath)
    if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) return known.file
    const hash = createHash('sha256')
    hash.update(readFileSync(bundlePath))
    hash.update(`\0${CACHE_FORMAT}\0${process.versions.v8}\0${process.arch}\0${process.execArgv.join('\0')}`)
    const file = join(this.dir, `${prefixOf(bundlePath)}${hash.digest('hex').slice(0, 32)}${SUFFIX}`)
    this.keys.set(bundlePath, { size: stat.size, mtimeMs: stat.mtimeMs, file })
    return file
  }

  /** Takes a worker's report: counts its status and saves the fresh cache it carries, if any. */
  accept(bundlePath: string, report: CodeCacheReport): void {
    this.reports[report.status]++
    if (report.data) this.save(bundlePath, report.data)
  }

  /**
   * Saves a worker's fresh cache for `bundlePath` as {@link fileFor}'s file (once per process and
   * file: concurrent workers all post one) and removes that bundle's files of other builds. A
   * failure to write is not an error: the next worker compiles from source and offers a cache again.
   * @returns true when this call wrote the file.
   */
  save(bundlePath: string, data: Uint8Array): boolean {
    let file: string
    try {
      file = this.fileFor(bundlePath)
    } catch {
      return false
    }
    if (this.saved.has(file) || data.byteLength === 0) return false
    this.saved.add(file)
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 })
      const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      writeFileAtomicSync(file, Buffer.concat([createHash('sha256').update(bytes).digest(), bytes]))
    } catch {
      this.saved.delete(file)
      return false
    }
    const prefix = prefixOf(bundlePath)
    for (const name of readdirSync(this.dir)) {
      if (name.startsWith(prefix) && name.endsWith(SUFFIX) && join(this.dir, name) !== file) {
        try {
          unlinkSync(join(this.dir, name))
        } catch {
          // another process removed it
        }
      }
    }
    return true
  }
}
