// `npm start [-- --cwd DIR | --scenario FILE | --demo]`: builds the desktop app and runs it in
// Electron. The Electron binary does not come from the npm registry: it is fetched at first run.
// Where that is impossible (offline machines, CI sandboxes) this says so and points at the
// browser UI, which serves the same renderer and runtime without Electron.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const electronDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'))

/** The Electron executable if it is installed, without triggering a download (`require('electron')` would). */
function installedElectron() {
  const pathFile = join(electronDir, 'path.txt')
  if (!existsSync(pathFile)) return undefined
  const relative = readFileSync(pathFile, 'utf8').trim()
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH || join(electronDir, 'dist')
  const binary = join(dist, relative)
  return existsSync(binary) ? binary : undefined
}

let electron = installedElectron()
if (!electron) {
  console.log('Electron is not installed yet; downloading it (first run)…')
  const download = spawnSync(process.execPath, [join(electronDir, 'install.js')], {
    stdio: ['ignore', 'inherit', 'pipe'],
    encoding: 'utf8'
  })
  electron = installedElectron()
  if (!electron)
    console.error(
      `Download failed: ${(download.stderr || '').split('\n').find((line) => line.trim()) ?? `exit code ${download.status}`}`
    )
}
if (!electron) {
  console.error(`
The Electron binary is missing and could not be downloaded, so the desktop app cannot start here.
Use the same workspace UI in a browser instead:

  npm run swarmdesk -- serve     serve the workspace UI to your browser
  npm run demo                   the offline demo

Once the machine can reach Electron's download server, \`npm start\` fetches it and starts the app.
`)
  process.exit(1)
}

const build = spawnSync(
  process.execPath,
  [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
  { cwd: root, stdio: 'inherit' }
)
if (build.status !== 0) process.exit(build.status ?? 1)

const child = spawn(electron, ['.', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
