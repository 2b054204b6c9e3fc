import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'

/**
 * The desktop app's build (STACK.md): main, preload and renderer. package.json has no
 * `"type": "module"`, so main and preload come out as CommonJS.
 *
 * - main: like the CLI bundle (scripts/build-node.mjs), pure-JS dependencies are bundled in —
 *   several are ESM-only (strip-ansi, diff, zod), which a CommonJS main could load only through
 *   require(esm) — while native addons (node-pty), packages that load files beside themselves
 *   (sh-syntax's WASM) and ws's optional native helpers stay external.
 * - preload: runs sandboxed, where `require` knows only 'electron' and a few built-ins, so it is
 *   one self-contained CommonJS file: src/shared (and the zod it uses) bundled in, only
 *   'electron' external.
 * - renderer: React; `base: './'` so out/renderer/index.html loads its assets over file://.
 */
/**
 * Where the three builds go: out/ (package.json's `main` points at out/main). A test that checks
 * the built bundles builds into a folder of its own under out/ through SWARMDESK_ELECTRON_OUT, so
 * it never races a build of the real out/.
 */
const OUT = resolve(__dirname, process.env.SWARMDESK_ELECTRON_OUT ?? 'out')

/** Dependencies main loads from node_modules at run time; the same list as the CLI bundle's. */
const MAIN_EXTERNAL = ['electron', 'node-pty', 'sh-syntax', 'ws', 'bufferutil', 'utf-8-validate'] as const

export default defineConfig({
  main: {
    build: {
      outDir: resolve(OUT, 'main'),
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/main/index.ts') },
        external: [...MAIN_EXTERNAL]
      }
    }
  },
  preload: {
    build: {
      outDir: resolve(OUT, 'preload'),
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].js' }
      }
    }
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    base: './',
    plugins: [react()],
    build: {
      outDir: resolve(OUT, 'renderer'),
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } }
    }
  }
})
