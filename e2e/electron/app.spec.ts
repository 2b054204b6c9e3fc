import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { _electron as electron, expect, test } from '@playwright/test'
import { createTempRepo } from '../workspace'

/**
 * The desktop app itself, in Electron. The Electron binary is fetched from outside the npm
 * registry at first run and cannot be had on some machines (STACK.md), so this skips there;
 * the same renderer and runtime are covered in Chromium through the web host. Expects `npm run build`.
 */
const root = resolve(__dirname, '../..')

/** The installed Electron executable, found without `require('electron')`, which would try a download. */
function electronBinary(): string | undefined {
  const dir = dirname(createRequire(__filename).resolve('electron/package.json'))
  const pathFile = join(dir, 'path.txt')
  if (!existsSync(pathFile)) return undefined
  const binary = join(
    process.env.ELECTRON_OVERRIDE_DIST_PATH || join(dir, 'dist'),
    readFileSync(pathFile, 'utf8').trim()
  )
  return existsSync(binary) ? binary : undefined
}

const executablePath = electronBinary()
const SKIPPED =
  'No Electron binary on this machine (it is downloaded at first `npm start`); the UI is tested in Chromium through the web host instead.'

test.beforeEach(() => {
  if (executablePath) return
  process.stdout.write(`e2e/electron skipped: ${SKIPPED}\n`)
  // Skipped only where the Electron binary cannot be had (STACK.md: this machine); the same UI and
  // IPC are covered in Chromium through the web host and by the vi.mock('electron') unit tests.
  test.skip(true, SKIPPED)
})

test('the window exposes only the workspace API and serves the workspace over IPC', async () => {
  const parent = mkdtempSync(join(tmpdir(), 'swarmdesk-electron-'))
  const cwd = createTempRepo()
  // Chromium refuses to start as root with its OS sandbox; the renderer's JS sandbox stays on.
  const osSandbox = process.getuid?.() === 0 ? ['--no-sandbox'] : []
  const app = await electron.launch({
    executablePath,
    args: [...osSandbox, '.', '--cwd', cwd, '--scenario', join(root, 'resources/demo/demo.yaml')],
    cwd: root,
    env: { ...process.env, SWARMDESK_HOME: join(parent, 'home'), ANTHROPIC_API_KEY: '' }
  })
  try {
    const page = await app.firstWindow()
    expect(
      await page.evaluate(() => Object.keys((window as unknown as { swarmdesk: object }).swarmdesk).sort())
    ).toEqual(['on', 'request'])
    expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined')
    expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined')
    const snapshot = await page.evaluate(() =>
      (
        window as unknown as {
          swarmdesk: { request: (c: string, p: object) => Promise<{ cwd: string; scripted: boolean }> }
        }
      ).swarmdesk.request('workspace.snapshot', {})
    )
    expect(snapshot).toMatchObject({ cwd, scripted: true })
    const before = page.url()
    await page.evaluate(() => {
      window.location.href = 'https://example.com/'
    })
    await page.waitForTimeout(500)
    expect(page.url()).toBe(before)
  } finally {
    await app.close()
    rmSync(parent, { recursive: true, force: true })
    rmSync(cwd, { recursive: true, force: true })
  }
})
