import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoPaths } from '../app/demoWorkspace'

/**
 * The app as electron-vite builds it. Electron cannot run here (STACK.md), so the built bundles
 * are run the way Electron would load them, with a stand-in for the 'electron' module: the preload
 * in a bare context whose `require` knows only 'electron' (as in a sandboxed renderer), main in
 * plain Node driving the real workspace runtime.
 */
const run = promisify(execFile)
const root = resolve(__dirname, '../../..')
const outName = `out/test-electron-${process.pid}`
const out = join(root, outName)

beforeAll(async () => {
  await run(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
    cwd: root,
    env: { ...process.env, SWARMDESK_ELECTRON_OUT: outName },
    maxBuffer: 16 * 1024 * 1024
  })
}, 120_000)
afterAll(() => rm(out, { recursive: true, force: true }))

describe('the electron-vite build', () => {
  it('emits a preload that needs nothing but electron and exposes only the workspace API', async () => {
    const code = await readFile(join(out, 'preload/index.js'), 'utf8')
    const required: string[] = []
    const exposed: Record<string, unknown> = {}
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, value: unknown) => (exposed[key] = value) },
      ipcRenderer: { invoke: async () => ({ ok: true, result: 'answer' }), on() {}, removeListener() {} }
    }
    const sandboxRequire = (id: string) => {
      required.push(id)
      if (id === 'electron') return electron
      throw new Error(`a sandboxed preload cannot require '${id}'`)
    }
    const module = { exports: {} }
    runInNewContext(`(function (require, module, exports) {${code}\n})`, {})(sandboxRequire, module, module.exports)
    expect(required).toEqual(['electron'])
    const api = exposed.swarmdesk as { request: (c: string, p: unknown) => Promise<unknown> }
    expect(Object.keys(api).sort()).toEqual(['on', 'request'])
    await expect(api.request('workspace.snapshot', {})).resolves.toBe('answer')
  })

  it('emits the renderer with relative asset paths for file://', async () => {
    const html = await readFile(join(out, 'renderer/index.html'), 'utf8')
    expect(html).toMatch(/src="\.\/assets\/[^"]+\.js"/)
  })

  it('emits a CommonJS main that boots, serves the real workspace over IPC and disposes it on quit', async () => {
    const ws = await mkdtemp(join(tmpdir(), 'swarmdesk-bundle-'))
    try {
      await run('git', ['init', '-q'], { cwd: ws })
      const { stdout } = await run(
        process.execPath,
        [
          join(__dirname, 'bundle.harness.cjs'),
          join(out, 'main/index.js'),
          root,
          '--cwd',
          ws,
          '--scenario',
          demoPaths().scenario
        ],
        {
          cwd: root,
          env: { ...process.env, SWARMDESK_HOME: join(ws, '.home'), ANTHROPIC_API_KEY: '' },
          timeout: 60_000
        }
      )
      const steps = Object.fromEntries(
        stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { step: string })
          .map((s) => [s.step, s])
      )
      expect(steps.enableSandbox).toBeDefined()
      expect(steps.loadFile).toMatchObject({
        file: join(root, 'out/renderer/index.html'),
        webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false }
      })
      expect(steps.snapshot).toMatchObject({ answer: { ok: true, result: { scripted: true, busy: false } } })
      expect(steps.prompt).toEqual({ step: 'prompt', answer: { ok: true, result: { ok: true } } })
      expect(steps.pushes).toMatchObject({
        pushes: { 'runtime.event': expect.any(Number), 'pane.data': expect.any(Number) }
      })
      expect(steps.quit).toEqual({ step: 'quit', handlersLeft: 0 })
    } finally {
      await rm(ws, { recursive: true, force: true })
    }
  }, 90_000)
})
