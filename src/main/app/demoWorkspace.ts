import { execFile } from 'node:child_process'
import { cp, mkdtemp, realpath } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { resourcesDir } from './resources'

const run = promisify(execFile)

/** Where the demo's sample project and scenarios live under resources/. */
export function demoPaths(): { project: string; scenario: string; survey: string } {
  const demo = join(resourcesDir(), 'demo')
  return { project: join(demo, 'project'), scenario: join(demo, 'demo.yaml'), survey: join(demo, 'survey.yaml') }
}

/** Fixed identity and dates of the demo repository's commits, so its history is the same everywhere. */
const DEMO_GIT_ENV = {
  GIT_AUTHOR_NAME: 'Swarmdesk Demo',
  GIT_AUTHOR_EMAIL: 'demo@swarmdesk.invalid',
  GIT_COMMITTER_NAME: 'Swarmdesk Demo',
  GIT_COMMITTER_EMAIL: 'demo@swarmdesk.invalid'
}

/** The demo repository's history: each commit adds these paths, at this date. */
const DEMO_HISTORY: Array<{ message: string; date: string; paths: string[] }> = [
  {
    message: 'Count word frequencies',
    date: '2026-01-05T10:00:00Z',
    paths: ['package.json', 'README.md', 'AGENTS.md', '.swarmdesk/settings.json', 'src/wordfreq.js']
  },
  { message: 'Format the most common words as a table', date: '2026-01-06T14:30:00Z', paths: ['src/format.js'] },
  { message: 'Add tests for counting, ordering and formatting', date: '2026-01-07T09:15:00Z', paths: ['test'] }
]

/**
 * Copies the sample project into a fresh temp directory and makes it a git repository with a
 * fixed history (author, dates), so every demo starts from the same state.
 * @returns the workspace's canonical path.
 * @throws Error when git is missing or a git command fails (with git's message).
 */
export async function createDemoWorkspace(parent = tmpdir()): Promise<string> {
  const dir = await realpath(await mkdtemp(join(parent, 'swarmdesk-demo-')))
  await cp(demoPaths().project, dir, { recursive: true })
  const git = (args: string[], date?: string) =>
    run('git', args, {
      cwd: dir,
      env: { ...process.env, ...DEMO_GIT_ENV, ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}) }
    })
  await git(['init', '-q', '-b', 'main'])
  await git(['config', 'user.name', DEMO_GIT_ENV.GIT_AUTHOR_NAME])
  await git(['config', 'user.email', DEMO_GIT_ENV.GIT_AUTHOR_EMAIL])
  await git(['config', 'commit.gpgsign', 'false'])
  for (const commit of DEMO_HISTORY) {
    await git(['add', '--', ...commit.paths])
    await git(['commit', '-q', '-m', commit.message], commit.date)
  }
  const untracked = (await git(['status', '--porcelain'])).stdout.trim()
  if (untracked)
    throw new Error(`The demo history misses files of resources/demo/project: ${untracked}. Add them to DEMO_HISTORY.`)
  return dir
}
