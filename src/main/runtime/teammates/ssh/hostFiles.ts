import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { trustStatus } from '../../permissions'
import {
  readTeammateEnv,
  TEAMMATE_LOCAL_SETTINGS_ENV,
  TEAMMATE_MCP_CONFIG_ENV,
  TEAMMATE_SETTINGS_FILES_ENV,
  TEAMMATE_TRUST_PROJECT_ENV,
  TEAMMATE_USER_SETTINGS_ENV
} from '../env'
import { join } from 'node:path'
import { shellQuote } from './command'

/** A file the preparation writes on the host: its path there and its text. */
export interface HostFile {
  path: string
  text: string
}

/**
 * The settings a local `process` teammate gets, made for a teammate on a host
 * (docs/hosts.md#the-sessions-settings-on-the-host): the contents of the session's `--settings`
 * and `--mcp-config` files (`env`'s teammate variables name them on the leader's machine), of the
 * leader's user settings (`<home>/settings.json`) and of the workspace's local settings
 * (`.swarmdesk/settings.local.json`), to be written in `dir` on the host as `settings-N.json`,
 * `mcp-N.json`, `user-settings.json` and `local-settings.json`, and the variables naming them
 * there (the user and local ones always: a file the leader lacks is missing there too, so the
 * host's own does not stand in); and the project's trust: a workspace the leader trusts (`--trust-project`, or
 * trusted in `<home>/trusted.json`) is trusted in the clone, which is the same project.
 * @throws RunUsageError for invalid teammate variables; Error naming a file that cannot be read.
 */
export async function sessionFilesForHost(
  env: Record<string, string>,
  dir: string,
  leader: { home: string; cwd: string }
): Promise<{ files: HostFile[]; env: Record<string, string> }> {
  const shared = readTeammateEnv(env)
  const read = (kind: string) => async (file: string, i: number) => {
    try {
      return { path: `${dir}/${kind}-${i + 1}.json`, text: await readFile(file, 'utf8') }
    } catch (error) {
      throw new Error(`Cannot read the session's ${kind} file ${file}: ${(error as Error).message}`, { cause: error })
    }
  }
  const settings = await Promise.all(shared.settingsFiles.map(read('settings')))
  const mcp = await Promise.all(shared.mcpConfigFiles.map(read('mcp')))
  const own = async (file: string, path: string): Promise<HostFile[]> => {
    try {
      return [{ path, text: await readFile(file, 'utf8') }]
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw new Error(`Cannot read the settings file ${file}: ${(error as Error).message}`, { cause: error })
    }
  }
  const user = { path: `${dir}/user-settings.json`, file: join(leader.home, 'settings.json') }
  const local = { path: `${dir}/local-settings.json`, file: join(leader.cwd, '.swarmdesk', 'settings.local.json') }
  const sources = [...(await own(user.file, user.path)), ...(await own(local.file, local.path))]
  const trusted = shared.trustProject || (await trustStatus(leader.home, leader.cwd).catch(() => undefined))?.trusted
  const out: Record<string, string> = {
    [TEAMMATE_USER_SETTINGS_ENV]: user.path,
    [TEAMMATE_LOCAL_SETTINGS_ENV]: local.path
  }
  if (settings.length) out[TEAMMATE_SETTINGS_FILES_ENV] = JSON.stringify(settings.map((f) => f.path))
  if (mcp.length) out[TEAMMATE_MCP_CONFIG_ENV] = JSON.stringify(mcp.map((f) => f.path))
  if (trusted) out[TEAMMATE_TRUST_PROJECT_ENV] = '1'
  return { files: [...settings, ...mcp, ...sources], env: out }
}

/**
 * The script a host teammate's preparation ssh runs (`sh -s`, from its stdin: nothing of it on a
 * command line): under umask 077, make the teammate's folder and its `filesDir` (emptied first),
 * write each of `files` (its env file, its session files) from a quoted here-document, and
 * `git init` the folder when `gitInit`. A file's text gets a final newline when it has none.
 */
export function preparationScript(dir: string, filesDir: string, files: readonly HostFile[], gitInit: boolean): string {
  const q = shellQuote
  let delimiter = `SWARMDESK_EOF_${randomBytes(12).toString('hex')}`
  while (files.some((f) => f.text.split('\n').includes(delimiter)))
    delimiter = `SWARMDESK_EOF_${randomBytes(12).toString('hex')}`
  return [
    'set -e',
    'umask 077',
    `rm -rf ${q(filesDir)}`,
    `mkdir -p ${q(dir)} ${q(filesDir)}`,
    ...files.map(
      (f) => `cat > ${q(f.path)} <<'${delimiter}'\n${f.text}${f.text.endsWith('\n') ? '' : '\n'}${delimiter}`
    ),
    ...(gitInit ? [`[ -d ${q(`${dir}/.git`)} ] || git init -q ${q(dir)}`] : []),
    ''
  ].join('\n')
}
