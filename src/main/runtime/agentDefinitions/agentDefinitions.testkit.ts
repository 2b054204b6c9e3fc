import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

/** A throwaway layout for loader tests: a workspace, a Swarmdesk home and a user home. */
export interface AgentDirs {
  cwd: string
  home: string
  userHome: string
  /** Writes `text` to `rel` under `root`, creating folders; returns the absolute path. */
  write(root: string, rel: string, text: string): Promise<string>
}

/** Creates the three folders of {@link AgentDirs} under a fresh temp dir. */
export async function makeAgentDirs(): Promise<AgentDirs> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'swarmdesk-agents-')))
  const dirs = { cwd: path.join(base, 'ws'), home: path.join(base, 'sdhome'), userHome: path.join(base, 'user') }
  await Promise.all(Object.values(dirs).map((d) => mkdir(d, { recursive: true })))
  return {
    ...dirs,
    async write(root, rel, text) {
      const file = path.join(root, rel)
      await mkdir(path.dirname(file), { recursive: true })
      await writeFile(file, text)
      return file
    }
  }
}

/** A definition file's text from frontmatter lines and a body. */
export function agentFile(frontmatter: string[], body = 'You review code.'): string {
  return ['---', ...frontmatter, '---', body, ''].join('\n')
}
