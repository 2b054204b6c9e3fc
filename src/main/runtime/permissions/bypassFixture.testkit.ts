import { mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

/**
 * The file tree the bypass regression suite (bypass.cases.ts) is decided against, built from
 * real files and real symlinks in a temp directory. Shared by the API test and the CLI test so
 * both decide the same cases against the same tree. Test helper only.
 *
 * ```
 * <base>/w/app                  the workspace (cwd of every case)
 *   src/a.ts, secrets/key.pem, .git/config, .git/hooks/, .swarmdesk/settings.json (project rules)
 *   link-out      → <base>/outside/secret.txt        (a file outside)
 *   link-secret   → secrets/key.pem                  (a denied file, relative link)
 *   link-dangling → <base>/outside/new.txt           (outside, does not exist yet)
 *   link-git      → .git/config      link-gitdir → .git      link-rc → <user>/.bashrc
 *   docs          → ../app_evil                      (a directory beside the workspace)
 *   agent-made.md → ../../outside/secret.txt         (as `ln -s` by the agent would leave it)
 *   linkdir/ok.ts, linkdir/zz → <base>/outside/secret.txt
 *   loop-a → loop-b → loop-a
 * <base>/w/app_evil/x   <base>/w/lib/x   <base>/w/lib_evil/x   <base>/w/extra/y   <base>/w/extra_evil/y
 * <base>/outside/secret.txt   <base>/home (SWARMDESK_HOME)   <base>/user (the person's home)
 * <base>/session.json   the `--settings` file: allow rules and an additional directory
 * ```
 */
export interface BypassFixture {
  base: string
  ws: string
  home: string
  userHome: string
  outside: string
  sessionSettings: string
}

/** The project's own rules (`.swarmdesk/settings.json`; the workspace is not trusted, so only rules apply). */
export const PROJECT_RULES = {
  deny: ['Read(./secrets/**)', 'Edit(./secrets/**)', 'Bash(rm:*)', 'Bash(curl:*)']
}

/** Session rules (`--settings`): allow rules for the quoting and side-effect cases. */
export function sessionRules(base: string): unknown {
  return {
    permissions: {
      allow: ['Bash(echo:*)', 'Bash(npm run test:*)', `Read(/${base}/w/lib/**)`, `Edit(/${base}/w/lib/**)`],
      additionalDirectories: [`${base}/w/extra`]
    }
  }
}

/** Build the tree above in a fresh temp directory (canonical: the temp dir's own links resolved). */
export async function makeBypassFixture(): Promise<BypassFixture> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'swarmdesk-bypass-')))
  const ws = path.join(base, 'w', 'app')
  const home = path.join(base, 'home')
  const userHome = path.join(base, 'user')
  const outside = path.join(base, 'outside')
  const dirs = ['src', 'secrets', '.git/hooks', '.swarmdesk', 'linkdir'].map((d) => path.join(ws, d))
  for (const d of [
    ...dirs,
    home,
    userHome,
    outside,
    ...['app_evil', 'lib', 'lib_evil', 'extra', 'extra_evil'].map((d) => path.join(base, 'w', d))
  ]) {
    await mkdir(d, { recursive: true })
  }
  const files: Record<string, string> = {
    [path.join(ws, 'src/a.ts')]: 'export const a = 1\n',
    [path.join(ws, 'secrets/key.pem')]: 'KEY\n',
    [path.join(ws, '.git/config')]: '[core]\n',
    [path.join(ws, 'linkdir/ok.ts')]: 'ok\n',
    [path.join(ws, '.swarmdesk/settings.json')]: JSON.stringify({ permissions: PROJECT_RULES }),
    [path.join(outside, 'secret.txt')]: 'SECRET\n',
    [path.join(userHome, '.bashrc')]: '# rc\n',
    [path.join(base, 'w/app_evil/x')]: 'x',
    [path.join(base, 'w/lib/x')]: 'x',
    [path.join(base, 'w/lib_evil/x')]: 'x',
    [path.join(base, 'w/extra/y')]: 'y',
    [path.join(base, 'w/extra_evil/y')]: 'y'
  }
  for (const [file, text] of Object.entries(files)) await writeFile(file, text)
  const links: Array<[target: string, at: string]> = [
    [path.join(outside, 'secret.txt'), 'link-out'],
    ['secrets/key.pem', 'link-secret'],
    [path.join(outside, 'new.txt'), 'link-dangling'],
    ['.git/config', 'link-git'],
    ['.git', 'link-gitdir'],
    [path.join(userHome, '.bashrc'), 'link-rc'],
    ['../app_evil', 'docs'],
    ['../../outside/secret.txt', 'agent-made.md'],
    [path.join(outside, 'secret.txt'), 'linkdir/zz'],
    ['loop-b', 'loop-a'],
    ['loop-a', 'loop-b']
  ]
  for (const [target, at] of links) await symlink(target, path.join(ws, at))
  const sessionSettings = path.join(base, 'session.json')
  await writeFile(sessionSettings, JSON.stringify(sessionRules(base)))
  return { base, ws, home, userHome, outside, sessionSettings }
}

/** Replace `{ws}`, `{base}`, `{out}`, `{home}`, `{user}` in `text` with the fixture's paths. */
export function fill(text: string, fx: BypassFixture): string {
  return text
    .replaceAll('{ws}', fx.ws)
    .replaceAll('{base}', fx.base)
    .replaceAll('{out}', fx.outside)
    .replaceAll('{home}', fx.home)
    .replaceAll('{user}', fx.userHome)
}

/** {@link fill} applied to every string of a tool input. */
export function fillInput(input: Record<string, unknown>, fx: BypassFixture): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, typeof v === 'string' ? fill(v, fx) : v]))
}
