// Builds the plain-Node bundles (the CLI, and every entry that must run without Electron) with
// esbuild. Dependencies stay external: node_modules is present wherever the CLI runs (npm ci),
// and node-pty is a native addon that cannot be bundled.
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Entry points of the Node bundles: source → output file under out/node. */
export const NODE_ENTRIES = {
  cli: 'src/main/cli/index.ts'
}

await build({
  absWorkingDir: root,
  entryPoints: NODE_ENTRIES,
  outdir: 'out/node',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
  banner: {
    // Bundled ESM has no require/__dirname; a few dependencies and our own code need them.
    js: "import { createRequire as __swarmdeskCreateRequire } from 'node:module'; const require = __swarmdeskCreateRequire(import.meta.url);"
  }
})
