import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { trustStatus } from '../../permissions'
import {
  readTeammateEnv,
  TEAMMATE_MCP_CONFIG_ENV,
  TEAMMATE_SETTINGS_FILES_ENV,
  TEAMMATE_TRUST_PROJECT_ENV
} from '../env'
import { shellQuote } from './command'

/** A file the preparation writes on the host: its path there and its text. */
export interface HostFile {
  path: string
  text: string
}

/**
 * The session's settings a local `process` teammate gets, made for a teammate on a host
 * (docs/hosts.md#the-sessions-settings-on-the-host): the contents of the session's `--settings`
 * and `--mcp-config` files (`env`'s teammate variables name them on the leader's machine), to be
 * written in `dir` on the host as `settings-N.json` and `mcp-N.json`, and the variables naming
 * them there; and the project's trust: a workspace the leader trusts (`--trust-project`, or
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
  const trusted = shared.trustProject || (await trustStatus(leader.home, leader.cwd).catch(() => undefined))?.trusted
  const out: Record<string, string> = {}
  if (settings.length) out[TEAMMATE_SETTINGS_FILES_ENV] = JSON.stringify(settings.map((f) => f.path))
  if (mcp.length) out[TEAMMATE_MCP_CONFIG_ENV] = JSON.stringify(mcp.map((f) => f.path))
  if (trusted) out[TEAMMATE_TRUST_PROJECT_ENV] = '1'
  return { files: [...settings, ...mcp], env: out }
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
