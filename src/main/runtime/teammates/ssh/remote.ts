import type { PtyProcess, TailBuffer } from '../../pty'
import type { TeamStorePort } from '../../teamStore'
import type { TeammateHost } from '../../../../shared/teammateHosts'
import type { TeammateExitInfo, TeammateSpawnConfig } from '../executor'
import { classifyExit, lastReport } from '../process/exitReason'
import type { TeammateFollowing } from '../process/follow'
import { bringBack } from './bringBack'
import { shellQuote, type RemoteForward } from './command'
import { sshRun, type LeaderRepo } from './git'
import type { SshMultiplexer } from './mux'

/** Where a host teammate's start went, ms (docs/hosts.md#benchmark). */
export interface HostStartPhases {
  /** The shared connection's set-up when this start opened it; absent when it was open or there is none. */
  connectMs?: number
  /** Whether its ssh went through a shared connection. */
  shared: boolean
  /** The preparation ssh (with its connection's set-up when not shared), each try's summed. */
  prepareMs: number
  /** git's push over ssh (the same). */
  pushMs: number
  /** Its terminal's `ssh -tt` started (epoch ms, the last try's). */
  terminalAt: number
  /** From that to its first heartbeat seen on the server (polled every 300 ms). */
  terminalMs: number
  tries: number
}

/** One teammate running on a host. */
export interface Remote {
  config: TeammateSpawnConfig & { host: TeammateHost; store: TeamStorePort }
  proc: PtyProcess
  follow: TeammateFollowing
  alive: boolean
  /** Until its first heartbeat (or the start gave up). */
  starting: boolean
  /** Its ssh ended before its first heartbeat because the host refused a remote forward's port. */
  refusedForward: boolean
  /** Set by kill() (or a lost heartbeat) while it still ran. */
  killReason: string | undefined
  /** Set when its heartbeat stopped on the server while its ssh still ran (a cut network). */
  lost: boolean
  output: TailBuffer
  /** Its terminal's remote forwards (cancelled in a shared connection at its end). */
  forwards: readonly RemoteForward[]
  /** Gives its share of its host's connection back (docs/hosts.md#connections). */
  release(): Promise<void>
  exited: Promise<TeammateExitInfo>
  watch: ReturnType<typeof setInterval> | undefined
  repo: LeaderRepo | undefined
  branch: string | undefined
  dir: string
  /** On the host: the folder of its session files (settings, MCP configuration). */
  filesDir: string
  /** On the host: the file holding its process's pid. */
  pidFile: string
}

/**
 * After a host teammate's ssh ended (docs/hosts.md#the-workspace-on-the-host): its branch fetched
 * back and reported (not when it was lost: its host is out of reach), its files on the host
 * removed, its forwards cancelled in its host's shared connection and its share of it given back
 * (the last one closes it, docs/hosts.md#connections), then how it ended worked out. Never throws.
 */
export async function finishRemote(
  entry: Remote,
  exit: { exitCode: number | null; signal: number | null },
  spawnedAt: number,
  deps: { mux: SshMultiplexer | undefined; notice(level: 'info' | 'warning', message: string): void }
): Promise<TeammateExitInfo> {
  entry.alive = false
  clearInterval(entry.watch)
  entry.follow.close()
  const { host, store } = entry.config
  if (entry.repo && entry.branch && !entry.lost)
    await bringBack(
      {
        host,
        team: entry.config.team,
        name: entry.config.name,
        dir: entry.dir,
        filesDir: entry.filesDir,
        pidFile: entry.pidFile,
        mailbox: store.mailbox,
        notice: deps.notice
      },
      entry.repo,
      entry.branch
    )
  else if (!entry.lost)
    await sshRun(host, `rm -rf ${shellQuote(entry.filesDir)} ${shellQuote(entry.pidFile)}`, '', 30_000).catch(
      () => undefined
    )
  else if (entry.branch)
    deps.notice('warning', `Its commits, if any, stay on host '${host.name}' in ${entry.dir} (branch ${entry.branch}).`)
  await deps.mux?.cancelForwards(host, entry.forwards)
  await entry.release()
  if (entry.lost) return { status: 'crashed', reported: false, reason: entry.killReason }
  try {
    return await classifyExit({
      exit,
      killReason: entry.killReason,
      output: entry.output,
      lastReport: () => lastReport(store.mailbox, entry.config, spawnedAt)
    })
  } catch (error) {
    return {
      status: 'crashed',
      reported: false,
      reason: `its exit could not be classified: ${(error as Error).message}`
    }
  }
}
