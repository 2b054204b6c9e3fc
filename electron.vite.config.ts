import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'

/**
 * The desktop app's build (STACK.md): main, preload and renderer. package.json has no
 * `"type": "module"`, so main and preload come out as CommonJS.
 *
 * - main: dependencies stay external (node-pty is a native addon; the rest is in node_modules
 *   wherever the app runs).
 * - preload: runs sandboxed, where `require` knows only 'electron' and a few built-ins, so it is
 *   one self-contained CommonJS file: src/shared (and the zod it uses) bundled in, only
 *   'electron' external.
 * - renderer: React; `base: './'` so out/renderer/index.html loads its assets over file://.
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      externalizeDeps: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src/main/index.ts') } }
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
