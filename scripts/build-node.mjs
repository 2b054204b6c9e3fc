// Builds the plain-Node bundles (the CLI, and every entry that must run without Electron) with
// esbuild. Pure-JS dependencies are bundled in (one file loads far faster than hundreds);
// native addons (node-pty), packages that load files beside themselves (sh-syntax's WASM) and
// ws's optional native helpers stay external.
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Entry points of the Node bundles: source → output file under out/node. */
export const NODE_ENTRIES = {
  cli: 'src/main/cli/index.ts',
  'teammate-worker': 'src/main/runtime/teammates/worker/entry.ts'
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
  external: ['node-pty', 'sh-syntax', 'electron', 'ws', 'bufferutil', 'utf-8-validate'],
  sourcemap: 'linked',
  logLevel: 'warning',
  banner: {
    // Bundled ESM has no require/__filename/__dirname; CommonJS dependencies bundled in use them.
    js: [
      "import { createRequire as __sdCreateRequire } from 'node:module';",
      "import { fileURLToPath as __sdFileURLToPath } from 'node:url';",
      "import { dirname as __sdDirname } from 'node:path';",
      'const require = __sdCreateRequire(import.meta.url);',
      'const __filename = __sdFileURLToPath(import.meta.url);',
      'const __dirname = __sdDirname(__filename);'
    ].join(' ')
  }
})
