import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import * as nodePty from 'node-pty'
import { PermissionEngine, loadPermissionSettings, prepareShellGrammar } from '../../src/main/runtime/permissions'
import { killProcessTree, readProcEntry, snapshotProcesses } from '../../src/main/runtime/processes'
import { createPtyHost, FIXED_PTY_ENV, PTY_TAG_VARIABLE } from '../../src/main/runtime/pty'
import { CompletionMarker, wrappedBashArgs } from '../../src/main/runtime/pty/completionMarker'
import { createBackgroundShells } from '../../src/main/runtime/pty/backgroundShells'
import { FileStateCache } from '../../src/main/runtime/tools/files/fileState'
import { BashTool, formatRunResult } from '../../src/main/runtime/tools/shell/bash'

/**
 * The steps of one Bash `true` in Swarmdesk, each timed on its own in this process, interleaved
 * round by round so the machine's load weighs on all alike. Wall ms per step; each figure the
 * median over the rounds. A step is what the Bash tool does, rebuilt from the same pieces
 * (node-pty, the completion-marker wrapper, the process-tree sweep, the permission engine), so
 * the whole (`bashToolMs`) can be read against its parts.
 */
export interface BashSteps {
  /** `bash --noprofile --norc -c true` as a plain child process (no terminal): the floor. */
  childProcessMs: number
  /** The same bash in a new PTY (node-pty), to its exit event: PTY creation and process set-up. */
  ptyBareMs: number
  /** The wrapped command (pty/completionMarker.ts) in a new PTY, to its completion marker. */
  ptyToMarkerMs: number
  /** From the marker to its process tree swept and verified gone (processes/killTree.ts). */
  sweepMs: number
  /** One read of the whole process table (/proc), which a sweep does at least twice. */
  procSnapshotMs: number
  /** `PtyHost.run('true')` in a new terminal (a host without spare shells), whole: spawn, marker, sweep, exit. */
  ptyRunMs: number
  /** `PtyHost.run('true')` taking the spare shell that waits in its folder (pty/spareShells.ts): typing, marker, sweep. */
  spareRunMs: number
  /**
   * The permission engine's decision on Bash `true` in bypassPermissions mode (deny rules still
   * checked), with the shell grammar prepared as the leader's session prepares it.
   */
  permissionMs: number
  /** The same, the first decision, made right after the grammar was asked to prepare (it may still be compiling). */
  permissionFirstMs: number
  /** Formatting the result for the model (`formatRunResult`). */
  formatMs: number
  /** `BashTool.call({command: 'true'})`, whole, with a spare shell waiting (as between an agent's calls). */
  bashToolMs: number
  rounds: number
}

const ms = (from: number) => performance.now() - from

/** Runs `command` in a PTY through the completion-marker wrapper; resolves with the time to the marker and to the swept tree. */
async function wrappedRun(cwd: string): Promise<{ toMarker: number; sweep: number }> {
  const token = randomUUID()
  const tag = { name: PTY_TAG_VARIABLE, value: randomUUID() }
  const env = { ...(process.env as Record<string, string>), ...FIXED_PTY_ENV, [tag.name]: tag.value }
  const marker = new CompletionMarker(token)
  const t0 = performance.now()
  const term = nodePty.spawn('bash', wrappedBashArgs('true', token), { name: 'xterm-256color', cwd, env })
  const startedAt = readProcEntry(term.pid)?.startTime
  const exited = new Promise<void>((resolve) => term.onExit(() => resolve()))
  const toMarker = await new Promise<number>((resolve) =>
    term.onData((chunk) => {
      if (marker.push(chunk).exitCode !== undefined) resolve(ms(t0))
    })
  )
  const t1 = performance.now()
  await killProcessTree(term.pid, { envTag: { ...tag, startedAt } })
  const sweep = ms(t1)
  await exited
  return { toMarker, sweep }
}

/** Times each step of a Bash `true` over `rounds` interleaved rounds in `cwd` (an absolute, canonical folder). */
export async function measureBashSteps(cwd: string, home: string, rounds: number): Promise<BashSteps> {
  const samples: Record<string, number[]> = {}
  const add = (k: string, v: number) => (samples[k] ??= []).push(v)
  const engine = new PermissionEngine(await loadPermissionSettings({ cwd, home, userHome: home }))
  const decide = () =>
    engine.decide({ kind: 'bash', command: 'true' }, { cwd, mode: 'bypassPermissions', tool: 'Bash' })
  prepareShellGrammar()
  let t = performance.now()
  const first = await decide()
  const permissionFirstMs = ms(t)
  if (first.decision !== 'allow') throw new Error(`Bash true was not allowed in bypass mode: ${first.reason}`)
  const pty = createPtyHost()
  const fresh = createPtyHost({ spares: false })
  const spareReady = async () => {
    pty.prewarm({ cwd })
    while (pty.sparePids().length === 0) await new Promise((r) => setTimeout(r, 5))
  }
  const ctx = {
    agentId: 'a0000000000000001',
    agentName: 'bench',
    cwd,
    signal: new AbortController().signal,
    fileState: new FileStateCache(),
    pty,
    shells: createBackgroundShells(pty),
    toolUseId: 'toolu_bench',
    onOutput: () => {}
  }
  try {
    // warm-up: the first PTY and the first bash pay for loading
    await pty.run({ command: 'true', cwd, timeoutMs: 30_000 })
    await fresh.run({ command: 'true', cwd, timeoutMs: 30_000 })
    for (let i = 0; i < rounds; i++) {
      t = performance.now()
      await new Promise<void>((resolve, reject) =>
        spawn('bash', ['--noprofile', '--norc', '-c', 'true'], { cwd, stdio: 'ignore' })
          .on('exit', () => resolve())
          .on('error', reject)
      )
      add('childProcessMs', ms(t))
      t = performance.now()
      await new Promise<void>((resolve) =>
        nodePty
          .spawn('bash', ['--noprofile', '--norc', '-c', 'true'], { name: 'xterm-256color', cwd, env: process.env })
          .onExit(() => resolve())
      )
      add('ptyBareMs', ms(t))
      const w = await wrappedRun(cwd)
      add('ptyToMarkerMs', w.toMarker)
      add('sweepMs', w.sweep)
      t = performance.now()
      snapshotProcesses()
      add('procSnapshotMs', ms(t))
      t = performance.now()
      const result = await fresh.run({ command: 'true', cwd, timeoutMs: 30_000 })
      add('ptyRunMs', ms(t))
      if (result.exitCode !== 0) throw new Error(`\`true\` exited ${result.exitCode}: ${result.output}`)
      await spareReady()
      t = performance.now()
      const spared = await pty.run({ command: 'true', cwd, timeoutMs: 30_000 })
      add('spareRunMs', ms(t))
      if (spared.exitCode !== 0) throw new Error(`\`true\` exited ${spared.exitCode}: ${spared.output}`)
      t = performance.now()
      await decide()
      add('permissionMs', ms(t))
      t = performance.now()
      formatRunResult(result, 120_000)
      add('formatMs', ms(t))
      await spareReady()
      t = performance.now()
      const out = await BashTool.call({ command: 'true' }, ctx)
      add('bashToolMs', ms(t))
      if (out.isError) throw new Error(`Bash true failed: ${out.content}`)
    }
  } finally {
    await pty.dispose()
    await fresh.dispose()
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b)
    return Math.round(s[s.length >> 1]! * 100) / 100
  }
  const figures = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]))
  return { ...(figures as Omit<BashSteps, 'rounds' | 'permissionFirstMs'>), permissionFirstMs, rounds }
}
