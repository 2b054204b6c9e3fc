import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { packageRoot } from '../../host'
import { createDemoWorkspace, demoPaths } from '../../app/demoWorkspace'
import { runServe, type ServeIo } from './serve'

/**
 * The Electron executable when it is installed, else undefined. Never loads the electron package itself: from
 * plain Node that starts a download when the binary is missing (STACK.md), and it cannot be had
 * here. Checks node_modules/electron/path.txt and the file it names under dist/.
 */
export function installedElectron(env: NodeJS.ProcessEnv = process.env): string | undefined {
  let electronDir: string
  try {
    electronDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'))
  } catch {
    return undefined
  }
  const pathFile = join(electronDir, 'path.txt')
  if (!existsSync(pathFile)) return undefined
  const binary = join(
    env.ELECTRON_OVERRIDE_DIST_PATH || join(electronDir, 'dist'),
    readFileSync(pathFile, 'utf8').trim()
  )
  return existsSync(binary) ? binary : undefined
}

/**
 * `swarmdesk demo` without `--headless` (docs/events.md#event-stream-and-command-line): the demo in the workspace UI. With an Electron
 * binary and a built app, opens the app window on a fresh demo workspace with the demo scenario and
 * resolves its exit code. Otherwise serves the same UI to a browser (like `swarmdesk serve`),
 * saying why, and runs until SIGINT/SIGTERM. The demo workspace is removed when it ends, unless `keep`.
 * @param prompt what to suggest the person asks the leader.
 */
export async function demoWithUi(prompt: string, io: ServeIo = {}, options: { keep?: boolean } = {}): Promise<number> {
  const out = io.stdout ?? ((line: string) => process.stdout.write(`${line}\n`))
  const workspace = await createDemoWorkspace()
  try {
    return await openDemo(workspace, prompt, io, out)
  } finally {
    await endDemoWorkspace(workspace, options.keep === true, out)
  }
}

async function openDemo(workspace: string, prompt: string, io: ServeIo, out: (line: string) => void): Promise<number> {
  const scenario = demoPaths().scenario
  const root = packageRoot()
  const electron = installedElectron()
  out(`Demo workspace: ${workspace}`)
  out(`Model: scripted (offline), scenario ${scenario}`)
  if (electron && existsSync(join(root, 'out', 'main', 'index.js'))) {
    out(`Ask the leader: ${prompt}`)
    return runElectron(electron, [root, '--cwd', workspace, '--scenario', scenario])
  }
  const why = electron ? 'the app is not built (run `npm run build`)' : 'there is no Electron binary on this machine'
  out(
    `The app window is unavailable here (${why}), so the workspace UI is served in the browser: open the SWARMDESK_URL below.`
  )
  out(`Ask the leader: ${prompt}`)
  return runServe({ cwd: workspace, port: 0, scenario, settingsFiles: [], trustProject: false }, io)
}

/** Runs the app and resolves its exit code; SIGINT/SIGTERM are passed on to it. */
function runElectron(binary: string, args: string[]): Promise<number> {
  const env = { ...process.env }
  // Set by `swarmdesk teammate` and friends; the app must start as an app, not as Node.
  delete env.ELECTRON_RUN_AS_NODE
  const child = spawn(binary, args, { stdio: 'inherit', env })
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal)
  const onInt = forward('SIGINT')
  const onTerm = forward('SIGTERM')
  process.on('SIGINT', onInt)
  process.on('SIGTERM', onTerm)
  return new Promise((resolve) => {
    const done = (code: number): void => {
      process.off('SIGINT', onInt)
      process.off('SIGTERM', onTerm)
      resolve(code)
    }
    child.once('error', (error) => {
      process.stderr.write(`swarmdesk demo: cannot start Electron (${binary}): ${error.message}\n`)
      done(1)
    })
    child.once('exit', (code, signal) => done(code ?? (signal ? 1 : 0)))
  })
}

/**
 * Removes a demo workspace, or with `keep` says where it stays (`say` gets one line). A removal
 * that fails is reported, never thrown: the demo's own result matters more.
 */
export async function endDemoWorkspace(workspace: string, keep: boolean, say: (line: string) => void): Promise<void> {
  if (keep) {
    say(`Demo workspace kept at ${workspace} (remove it when done).`)
    return
  }
  try {
    await rm(workspace, { recursive: true, force: true, maxRetries: 3 })
  } catch (error) {
    say(`swarmdesk demo: could not remove the demo workspace ${workspace}: ${(error as Error).message}`)
  }
}
