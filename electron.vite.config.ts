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
/** Dependencies main loads from node_modules at run time; the same list as the CLI bundle's. */
const MAIN_EXTERNAL = ['electron', 'node-pty', 'sh-syntax', 'ws', 'bufferutil', 'utf-8-validate'] as const

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/main/index.ts') },
        external: [...MAIN_EXTERNAL]
      }
    }
  },
  preload: {
    build: {
      outDir: 'out/preload',
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
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } }
    }
  }
})
