import type { TeammateHost } from '../../../../shared/teammateHosts'
import type { MailboxPort } from '../../teamStore'
import { LEAD_NAME } from '../../teams'
import { shellQuote } from './command'
import { fetchBranch, sshRun, type LeaderRepo } from './git'

/** The subject of the commit that carries a host teammate's uncommitted work back (docs/hosts.md#the-workspace-on-the-host). */
export function uncommittedWorkSubject(name: string): string {
  return `uncommitted work of ${name}`
}

/**
 * Commits what the teammate left uncommitted in its clone on the host (every change, new files
 * included; ignored files stay ignored) as one commit `uncommitted work of <name>` on its branch,
 * authored by the teammate, hooks and signing off. Only when the clone is on its branch: a
 * teammate that moved to another branch or a detached HEAD keeps its changes in place.
 * @returns `committed` with the number of changed paths it holds, `clean`, or `elsewhere` with the
 *   number of changes left (the clone not on `branch`).
 * @throws Error when ssh or git fails there.
 */
export async function commitUncommitted(
  host: TeammateHost,
  dir: string,
  branch: string,
  name: string
): Promise<{ state: 'committed' | 'elsewhere'; changes: number } | { state: 'clean' }> {
  const q = shellQuote
  const email = `${name}@swarmdesk.invalid`
  const script = [
    `cd ${q(dir)}`,
    'n=$(git status --porcelain | wc -l)',
    'if [ "$n" -eq 0 ]; then echo clean; exit 0; fi',
    `if [ "$(git symbolic-ref -q HEAD)" != ${q(`refs/heads/${branch}`)} ]; then echo "elsewhere $n"; exit 0; fi`,
    'git add -A',
    `git -c user.name=${q(name)} -c user.email=${q(email)} -c commit.gpgsign=false commit -q --no-verify -m ${q(uncommittedWorkSubject(name))}`,
    'echo "committed $n"'
  ].join(' && ')
  const [state, count] = (await sshRun(host, script, '', 60_000)).trim().split(/\s+/)
  if (state === 'clean') return { state }
  if (state === 'committed' || state === 'elsewhere') return { state, changes: Number(count) }
  throw new Error(`unexpected answer from host '${host.name}': ${state ?? ''} ${count ?? ''}`)
}

/** What {@link bringBack} needs of a host teammate that ended. */
export interface EndedHostTeammate {
  host: TeammateHost
  team: string
  name: string
  /** Its clone on the host, the folder of its session files and its pid file there. */
  dir: string
  filesDir: string
  pidFile: string
  mailbox: MailboxPort
  notice(level: 'info' | 'warning', message: string): void
}

/**
 * Brings a host teammate's work back (docs/hosts.md#the-workspace-on-the-host): its uncommitted
 * changes committed on its branch there ({@link commitUncommitted}), the branch fetched into the
 * leader's repository (never its working tree) and what came back said — a notice on its pane and
 * a message in its name to the lead's model (as a worktree agent's result names its kept branch,
 * docs/agents.md#worktree-isolation), unless the team is gone by then. Then its clone, session
 * files and pid file on the host are removed, unless changes are still uncommitted there (kept, and said so).
 */
export async function bringBack(t: EndedHostTeammate, repo: LeaderRepo, branch: string): Promise<void> {
  const { host, name } = t
  let leftover: Awaited<ReturnType<typeof commitUncommitted>> | undefined
  try {
    leftover = await commitUncommitted(host, t.dir, branch, name)
  } catch (error) {
    t.notice(
      'warning',
      `Its uncommitted changes on host '${host.name}' could not be committed: ${(error as Error).message}`
    )
  }
  let count: number
  try {
    count = await fetchBranch(repo, host, t.dir, branch)
  } catch (error) {
    const why = (error as Error).message
    const message = `Its branch ${branch} could not be fetched from host '${host.name}' (${why}); its commits stay in ${t.dir} there.`
    return t.notice('warning', message)
  }
  if (count > 0) {
    const uncommitted =
      leftover?.state === 'committed'
        ? `, the last one "${uncommittedWorkSubject(name)}": the ${leftover.changes} change${leftover.changes === 1 ? '' : 's'} it left uncommitted`
        : ''
    const commits = `${count} commit${count === 1 ? '' : 's'} over ${repo.head.slice(0, 12)}${uncommitted}`
    const text = `${name} has ended on host '${host.name}'. Its work is now on branch ${branch} in ${repo.top} (${commits}); review or merge it from there.`
    await t.mailbox
      .send(t.team, LEAD_NAME, { from: name, text, summary: `work on ${branch}` }, { existingTeamOnly: true })
      .catch(() => undefined)
    t.notice('info', `Its work is on branch ${branch} in ${repo.top}: ${commits} (from host '${host.name}').`)
  }
  const q = shellQuote
  try {
    const changes = (await sshRun(host, `git -C ${q(t.dir)} status --porcelain`, '', 30_000)).trim()
    if (changes) {
      const lines = changes.split('\n').length
      const why =
        leftover?.state === 'elsewhere' ? ` (it is not on its branch ${branch}, so they were not committed)` : ''
      const message = `Its clone on host '${host.name}' is kept: ${t.dir} holds ${lines} uncommitted change${lines === 1 ? '' : 's'}${why}.`
      return t.notice('warning', message)
    }
    await sshRun(host, `rm -rf ${q(t.dir)} ${q(t.filesDir)} ${q(t.pidFile)}`, '', 60_000)
  } catch (error) {
    t.notice('warning', `Its clone ${t.dir} on host '${host.name}' is left there: ${(error as Error).message}`)
  }
}
