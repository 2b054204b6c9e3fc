import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { PermissionDecision, PermissionMode, PermissionSubject } from '../../../shared/permissions'
import { PermissionEngine } from './engine'
import { loadPermissionSettings, type LoadSettingsOptions } from './settings'

/** A temp workspace + home for permission tests (real files, real symlinks). Test helper only. */
export interface TestWorkspace {
  base: string
  ws: string
  home: string
  userHome: string
  outside: string
  writeSettings(file: string, data: unknown): Promise<string>
  engine(opts?: Partial<LoadSettingsOptions>): Promise<PermissionEngine>
  decide(
    subject: PermissionSubject,
    mode?: PermissionMode,
    opts?: Partial<LoadSettingsOptions>
  ): Promise<PermissionDecision>
}

/** Create `<tmp>/ws` (with src/a.ts, .git/config), `<tmp>/home`, `<tmp>/user`, `<tmp>/outside`. */
export async function makeWorkspace(): Promise<TestWorkspace> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'swarmdesk-perm-')))
  const ws = path.join(base, 'ws')
  const home = path.join(base, 'home')
  const userHome = path.join(base, 'user')
  const outside = path.join(base, 'outside')
  for (const d of [ws, path.join(ws, 'src'), path.join(ws, '.git'), home, userHome, outside])
    await mkdir(d, { recursive: true })
  await writeFile(path.join(ws, 'src', 'a.ts'), 'x')
  await writeFile(path.join(ws, '.git', 'config'), '')
  await writeFile(path.join(outside, 'secret.txt'), 's')
  const t: TestWorkspace = {
    base,
    ws,
    home,
    userHome,
    outside,
    async writeSettings(file, data) {
      await mkdir(path.dirname(file), { recursive: true })
      await writeFile(file, typeof data === 'string' ? data : JSON.stringify(data))
      return file
    },
    async engine(opts = {}) {
      return new PermissionEngine(await loadPermissionSettings({ cwd: ws, home, userHome, ...opts }))
    },
    async decide(subject, mode = 'default', opts = {}) {
      return (await t.engine(opts)).decide(subject, { cwd: ws, mode })
    }
  }
  return t
}
