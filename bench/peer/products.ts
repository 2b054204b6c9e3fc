import { spawn } from 'node:child_process'
import { join } from 'node:path'
import {
  startScriptedServer,
  type RecordedRequest,
  type ScenarioInput,
  type ScriptedStats
} from '../../src/main/runtime/scripted'
import type { Product } from './stats'
import { sampleTreePeak } from './procTree'
import { startTimingProxy, type Timing } from './proxy'

/** The repository root: the bench runner and vitest both run from it. */
const REPO = process.cwd()

/** A model request of one run: the scripted server's log entry joined with the proxy's timing. */
export interface TimedRequest extends Timing {
  agentName?: string
  agentType?: string
  /** The body as received (UTF-8). */
  raw: string
  promptTokens: number
}

/** One whole-process run of a product on a scenario. */
export interface ProductRun {
  product: Product
  code: number | null
  /** Spawn to exit, ms. */
  wallMs: number
  stdout: string
  stderr: string
  /** Peak RSS of the process tree, bytes; only when sampled. */
  peakRssBytes?: number
  /** Model requests (POST /v1/messages), in arrival order. */
  requests: TimedRequest[]
  stats: ScriptedStats
}

/** What a run needs: where the product works and keeps its state, and its `claude` for Claude Code. */
export interface RunOptions {
  product: Product
  scenario: ScenarioInput
  prompt: string
  /** The working directory (the scenario's paths point into it). */
  cwd: string
  /** A scratch home of this product, kept across its runs (both start warm after the warm-up run). */
  home: string
  claudeBin?: string
  /** The `swarmdesk` command a Swarmdesk run starts (default: this checkout's bin/swarmdesk). */
  swarmdeskBin?: string
  sampleMemory?: boolean
  timeoutMs?: number
}

/**
 * The command line and environment of each product, aimed at `baseUrl`, with permissions
 * bypassed and the sandbox off (both products' default; the scratch homes hold no settings).
 * Claude Code's environment is the interop tests' (claudeCode.testkit.ts): a dummy key, no
 * nonessential traffic, `IS_SANDBOX=1` for its bypass mode as root.
 */
function command(o: RunOptions, baseUrl: string): { file: string; args: string[]; env: Record<string, string> } {
  const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: o.home, ANTHROPIC_API_KEY: 'scripted-model' }
  if (o.product === 'claudeCode') {
    if (!o.claudeBin) throw new Error('a Claude Code run needs the installed claude binary')
    return {
      file: o.claudeBin,
      args: ['-p', '--dangerously-skip-permissions', o.prompt],
      env: { ...base, ANTHROPIC_BASE_URL: baseUrl, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', IS_SANDBOX: '1' }
    }
  }
  return {
    file: process.execPath,
    args: [
      o.swarmdeskBin ?? join(REPO, 'bin', 'swarmdesk'),
      'run',
      '--cwd',
      o.cwd,
      '--permission-mode',
      'bypassPermissions',
      o.prompt
    ],
    env: { ...base, SWARMDESK_HOME: join(o.home, '.swarmdesk'), SWARMDESK_SCRIPTED_MODEL_URL: baseUrl }
  }
}

/**
 * Runs one product once, as a user starts it (its own process, stdin closed), against a fresh
 * scripted server behind a timing proxy; resolves when it has exited, with every model request
 * timed. Memory, when asked, is the whole process tree's RSS sampled every 50 ms.
 * @throws when the process cannot be started.
 */
export async function runProduct(o: RunOptions): Promise<ProductRun> {
  const server = await startScriptedServer({ scenario: o.scenario })
  const proxy = await startTimingProxy(server.url)
  try {
    const { file, args, env } = command(o, proxy.url)
    const t0 = performance.now()
    const child = spawn(file, args, {
      cwd: o.cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: o.timeoutMs ?? 90_000
    })
    const sampler = o.sampleMemory && child.pid !== undefined ? sampleTreePeak(child.pid) : undefined
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject)
      child.on('exit', (c) => resolve(c))
    })
    const wallMs = performance.now() - t0
    const peakRssBytes = sampler?.stop()
    // the rest of its output; bounded, as a grandchild it left behind may hold the pipe open
    await Promise.race([
      new Promise<void>((resolve) => (child.stdout.closed ? resolve() : child.stdout.on('close', resolve))),
      new Promise<void>((resolve) => setTimeout(resolve, 2_000).unref())
    ])
    return {
      product: o.product,
      code,
      wallMs,
      stdout,
      stderr,
      ...(peakRssBytes === undefined ? {} : { peakRssBytes }),
      requests: timedRequests(server.requests(), proxy.timings()),
      stats: server.stats()
    }
  } finally {
    await proxy.close()
    await server.close()
  }
}

/** Joins the server's log to the proxy's timings by the `x-bench-seq` header, in arrival order. */
export function timedRequests(log: RecordedRequest[], timings: Timing[]): TimedRequest[] {
  const bySeq = new Map(log.map((r) => [r.headers['x-bench-seq'], r]))
  return timings.map((t) => {
    const r = bySeq.get(String(t.seq))
    return {
      ...t,
      agentName: r?.agentName,
      agentType: r?.agentType,
      raw: r?.rawBody ?? '',
      promptTokens: r?.promptTokens ?? 0
    }
  })
}
