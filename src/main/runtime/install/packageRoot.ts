import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The swarmdesk package's root, found by walking up from this module to the package.json named
 * `swarmdesk`, so it works from the sources (tests), the Node bundles (out/node) and the Electron
 * main bundle (out/main) alike.
 * @throws Error when no ancestor is the swarmdesk package (an incomplete installation).
 */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from)
  for (;;) {
    if (isSwarmdeskPackage(dir)) return dir
    const parent = dirname(dir)
    if (parent === dir)
      throw new Error(`Cannot find the swarmdesk package above ${from}; the installation is incomplete.`)
    dir = parent
  }
}

/** The plain-Node bundles `scripts/build-node.mjs` writes to `out/node` (`npm ci` builds them). */
export type NodeBundle = 'cli' | 'teammate-worker'

/** File name of each Node bundle: the CLI is an ES module, the worker teammate bundle CommonJS (for its V8 code cache). */
const BUNDLE_FILES: Readonly<Record<NodeBundle, string>> = { cli: 'cli.mjs', 'teammate-worker': 'teammate-worker.cjs' }

/**
 * Absolute path of a Node bundle, `<package root>/out/node/cli.mjs` or
 * `<package root>/out/node/teammate-worker.cjs` (docs/design.md#process-model: process teammates run the CLI bundle,
 * worker teammates the worker bundle).
 * @throws Error when the bundle is missing, saying how to build it.
 */
export function nodeBundlePath(name: NodeBundle): string {
  const path = join(packageRoot(), 'out', 'node', BUNDLE_FILES[name])
  if (!existsSync(path))
    throw new Error(`Swarmdesk's ${name} bundle is missing (${path}); build it with: npm run build`)
  return path
}

function isSwarmdeskPackage(dir: string): boolean {
  const file = join(dir, 'package.json')
  if (!existsSync(file)) return false
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'swarmdesk'
  } catch {
    return false
  }
}
