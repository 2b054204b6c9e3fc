import { packageRoot } from '../../install'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { MessageChannel, Worker, type MessagePort, type ResourceLimits } from 'node:worker_threads'

import { isCodeCacheReport, WORKER_BUNDLE_WRAPPER, type WorkerCodeCache } from './codeCache'
import { WORKER_PROTOCOL_VERSION, type WorkerData } from './protocol'

/**
 * A counting gate: at most `width` holders at once, the others wait in arrival order. `acquire`
 * resolves to the holder's release function (calling it again does nothing).
 */
export class StartGate {
  private active = 0
  private readonly waiting: Array<() => void> = []

  constructor(private readonly width: number) {}

  async acquire(): Promise<() => void> {
    if (this.active < this.width) this.active++
    else await new Promise<void>((resolve) => this.waiting.push(resolve))
    let released = false
    return () => {
      if (released) return
      released = true
      const next = this.waiting.shift()
      // the slot passes straight to the next in line; only an unclaimed slot frees up
      if (next) next()
      else this.active--
    }
  }
}

/** How a {@link TeammateThread} starts: its bundle, heap limits, prelude and code cache. */
export interface ThreadOptions {
  entryPath: string
  resourceLimits: ResourceLimits
  spawnReplyTimeoutMs: number
  preludePath?: string
  /** Compile a `.cjs` entry with this cache, and save the cache the worker offers. */
  codeCache?: WorkerCodeCache
}

/**
 * One worker thread running the bootstrap and the teammate entry (see `protocol.ts`): it loads the
 * bundle, posts `loaded` and waits for its `start`. Until the executor's WorkerTeammate adopts it, it
 * is a spare: the thread and its port are unref'd (a spare never keeps the process alive), an
 * error or exit of it only marks it unusable and calls `onGone`.
 */
export class TeammateThread {
  readonly worker: Worker
  /** The main thread's end of the RPC channel. */
  readonly port: MessagePort
  /** Resolves true once the worker posted `loaded`; false when it ended (or failed) first. Settles at most once; never rejects. */
  readonly loaded: Promise<boolean>
  private failed = false
  private adopted = false
  private readonly onError: () => void
  private readonly onExit: () => void
  private readonly onMessage: (raw: unknown) => void

  /** @throws the Worker constructor's error (e.g. too many threads); nothing is left open then. */
  constructor(options: ThreadOptions, onGone?: () => void) {
    const { entryPath, resourceLimits, spawnReplyTimeoutMs, preludePath, codeCache } = options
    const { port1, port2 } = new MessageChannel()
    const nodePtyPath = resolveNodePty()
    const codeCachePath = codeCache ? codeCacheFile(codeCache, entryPath) : undefined
    const data: WorkerData = {
      protocol: WORKER_PROTOCOL_VERSION,
      port: port2,
      spawnReplyTimeoutMs,
      entryPath,
      ...(nodePtyPath ? { nodePtyPath } : {}),
      ...(preludePath ? { preludePath } : {}),
      ...(codeCachePath ? { codeCachePath } : {})
    }
    try {
      this.worker = new Worker(BOOTSTRAP, { eval: true, workerData: data, transferList: [port2], resourceLimits })
    } catch (error) {
      port1.close()
      port2.close()
      throw error
    }
    this.port = port1
    let settle!: (loaded: boolean) => void
    this.loaded = new Promise<boolean>((resolve) => (settle = resolve))
    this.onError = () => {
      this.failed = true
      settle(false)
    }
    this.onExit = () => {
      this.failed = true
      settle(false)
      this.port.close()
      onGone?.()
    }
    this.onMessage = (raw) => {
      if ((raw as { type?: unknown } | null)?.type === 'loaded') settle(true)
    }
    this.worker.on('error', this.onError)
    this.worker.on('exit', this.onExit)
    this.port.on('message', this.onMessage)
    // the bootstrap's one message on parentPort, after it compiled the bundle (it may come after adoption)
    if (codeCache) {
      this.worker.on('message', (raw: unknown) => {
        if (isCodeCacheReport(raw)) codeCache.accept(entryPath, raw)
      })
    }
    this.worker.unref()
    this.port.unref()
  }

  /** True while it can still be given a teammate: not adopted, no error, not exited. */
  usable(): boolean {
    return !this.adopted && !this.failed
  }

  /**
   * Hands the thread to its teammate: call right after attaching the teammate's own listeners, in
   * the same tick (so no event falls between). Removes the spare's listeners and refs the thread
   * and port: a running teammate keeps the process alive.
   */
  adopt(): void {
    this.adopted = true
    this.worker.off('error', this.onError)
    this.worker.off('exit', this.onExit)
    this.port.off('message', this.onMessage)
    this.worker.ref()
    this.port.ref()
  }

  /** Terminates a spare (a no-op once adopted: its teammate owns it); resolves once its thread is gone. */
  async terminate(): Promise<void> {
    if (this.adopted) return
    this.failed = true
    await this.worker.terminate()
  }
}

let nodePtyPath: string | null | undefined

/** node-pty's entry as the bundle would resolve it (from the package root), or undefined when it cannot be found. */
function resolveNodePty(): string | undefined {
  if (nodePtyPath === undefined) {
    try {
      nodePtyPath = createRequire(join(packageRoot(), 'package.json')).resolve('node-pty')
    } catch {
      nodePtyPath = null
    }
  }
  return nodePtyPath ?? undefined
}

/**
 * The worker's first code (CommonJS, eval'd): the worker bundle imports node-pty statically (the
 * runner's default PTY host), and node-pty must never load in a worker thread (STACK.md: a worker
 * exiting with it loaded can abort the whole process). So before importing the entry it puts a
 * stub in node-pty's require.cache slot, whose functions throw, and refuses node-pty's native addon
 * outright should anything load it another way. Then it loads the prelude, if any (`require` for a
 * `.cjs` one, else `import()`), and loads
 * the entry: a `.cjs` bundle (the CommonJS wrapper function itself, {@link WORKER_BUNDLE_WRAPPER}) is compiled as a script with the code cache at `codeCachePath` (its
 * SHA-256 checked first, then V8's own checks; Node 20 has no code cache for ES modules) and run
 * as a CommonJS module; when there
 * was no usable cache, it posts a fresh one on parentPort ({@link CodeCacheReport}) for the main
 * thread to save. Any other entry is `import()`ed.
 */
const BOOTSTRAP = `'use strict';
const { workerData } = require('node:worker_threads');
const Module = require('node:module');
const { pathToFileURL } = require('node:url');
const refuse = () => {
  throw new Error('node-pty is not available in a worker thread: shell commands go to the PTY host of the main thread (docs/design.md#process-model). Use the PTY client a worker teammate is given.');
};
if (workerData.nodePtyPath) {
  const stub = new Module(workerData.nodePtyPath);
  stub.filename = workerData.nodePtyPath;
  stub.loaded = true;
  stub.exports = { spawn: refuse, fork: refuse, createTerminal: refuse, open: refuse, native: null };
  require.cache[workerData.nodePtyPath] = stub;
}
const dlopen = process.dlopen;
process.dlopen = function (module, filename, ...rest) {
  if (/[\\\\/]node-pty[\\\\/]/.test(String(filename))) refuse();
  return dlopen.call(this, module, filename, ...rest);
};
const loadScript = (entry, cachePath) => {
  const fs = require('node:fs');
  const path = require('node:path');
  const vm = require('node:vm');
  const { parentPort } = require('node:worker_threads');
  let cachedData;
  let damaged = false;
  if (cachePath) {
    let file;
    try { file = fs.readFileSync(cachePath); } catch { file = undefined; }
    // V8 checks only a cache's header: damaged bytecode would abort the whole process, so the
    // SHA-256 of the data, written before it, must match before V8 sees it
    if (file !== undefined) {
      const data = file.subarray(32);
      if (file.length > 32 && require('node:crypto').createHash('sha256').update(data).digest().equals(file.subarray(0, 32))) cachedData = data;
      else damaged = true;
    }
  }
  // the bundle is the CommonJS wrapper function as built (scripts/build-node.mjs): compiled as read, one copy of its source
  const source = fs.readFileSync(entry, 'utf8');
  if (!source.startsWith(${JSON.stringify(WORKER_BUNDLE_WRAPPER)})) throw new Error(entry + ' is not a worker teammate bundle of this version (it must be the body of a CommonJS wrapper function): rebuild with npm run build');
  const script = new vm.Script(source, { filename: entry, cachedData, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
  const status = cachedData === undefined ? (damaged ? 'rejected' : 'absent') : script.cachedDataRejected ? 'rejected' : 'used';
  const module = { exports: {}, id: entry, filename: entry, loaded: false };
  script.runInThisContext().call(module.exports, module.exports, Module.createRequire(entry), module, entry, path.dirname(entry));
  module.loaded = true;
  if (!cachePath) return;
  parentPort.postMessage(status === 'used' ? { type: 'codeCache', status } : { type: 'codeCache', status, data: script.createCachedData() });
};
const load = () => {
  if (workerData.entryPath.endsWith('.cjs')) loadScript(workerData.entryPath, workerData.codeCachePath);
  else return import(pathToFileURL(workerData.entryPath).href);
};
if (workerData.preludePath && workerData.preludePath.endsWith('.cjs')) {
  require(workerData.preludePath);
  load();
} else if (workerData.preludePath) import(pathToFileURL(workerData.preludePath).href).then(load);
else load();
`

/** The code cache file of `entryPath`, or undefined when the bundle cannot be read (the worker then fails to load it and says why). */
function codeCacheFile(codeCache: WorkerCodeCache, entryPath: string): string | undefined {
  try {
    return codeCache.fileFor(entryPath)
  } catch {
    return undefined
  }
}
