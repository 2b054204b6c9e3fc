import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startCli } from '../cli.testkit'
import { installedElectron } from './demoUi'

let home: string
beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-home-')))
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

describe('swarmdesk demo without --headless', () => {
  it('never triggers electron’s downloader to find out whether the binary exists', () => {
    const before = existsSync(join(process.cwd(), 'node_modules', 'electron', 'path.txt'))
    const found = installedElectron()
    expect(found === undefined || existsSync(found)).toBe(true)
    expect(existsSync(join(process.cwd(), 'node_modules', 'electron', 'path.txt'))).toBe(before)
  })

  it.skipIf(installedElectron() !== undefined)(
    'serves the demo workspace UI in the browser where no Electron binary exists, and says so',
    async () => {
      const child = startCli(['demo'], { env: { SWARMDESK_HOME: home } })
      let stderr = ''
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
      const lines: string[] = []
      for await (const line of createInterface({ input: child.stdout! })) {
        lines.push(line)
        if (line.startsWith('SWARMDESK_URL ')) break
      }
      const workspace = /^Demo workspace: (\S+)$/.exec(lines[0] ?? '')?.[1]
      try {
        expect(workspace, `stdout: ${lines.join('\n')}\nstderr: ${stderr}`).toBeDefined()
        expect(existsSync(join(workspace!, '.git'))).toBe(true)
        expect(lines.join('\n')).toContain(
          'The app window is unavailable here (there is no Electron binary on this machine), so the workspace UI is served in the browser'
        )
        const url = /^SWARMDESK_URL (http:\/\/127\.0\.0\.1:\d+)\/\?token=[0-9a-f]{64}$/.exec(lines.at(-1)!)
        expect(url).not.toBeNull()
        expect((await fetch(`${url![1]}/`)).status).toBe(401)
        child.kill('SIGTERM')
        expect(await exited).toBe(0)
        // the throwaway copy under the temp folder goes with the demo
        expect(existsSync(workspace!)).toBe(false)
      } finally {
        child.kill('SIGKILL')
        if (workspace) rmSync(workspace, { recursive: true, force: true })
      }
    }
  )
})
