// Builds the plain-Node bundles (the CLI, and every entry that must run without Electron) with
// esbuild. Pure-JS dependencies are bundled in (one file loads far faster than hundreds);
// native addons (node-pty), packages that load files beside themselves (sh-syntax's WASM) and
// ws's optional native helpers stay external.
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * Entry points of the Node bundles: output name → source. The CLI is ESM (`out/node/cli.mjs`).
 * The worker teammate bundle is CommonJS (`out/node/teammate-worker.cjs`): the worker's bootstrap
 * compiles it with `vm.Script` and a V8 code cache, which Node 20 offers for scripts only, not
 * for ES modules (see src/main/runtime/teammates/worker/codeCache.ts).
 */
export const NODE_ENTRIES = {
  cli: { source: 'src/main/cli/index.ts', format: 'esm', extension: '.mjs' },
  'teammate-worker': { source: 'src/main/runtime/teammates/worker/entry.ts', format: 'cjs', extension: '.cjs' }
}

/**
 * Dependencies the worker teammate bundle leaves in node_modules, loaded on first use: each is
 * reached only through a dynamic import (or from a module that is), or, for re2js, a `require` made
 * on the first Grep (tools/files/grepEngine.ts). The NATS client loads on the first team store
 * opened on a server (teamStore/open.ts). A static import of one on the
 * worker's start-up path would load it from node_modules at every start:
 * src/main/runtime/teammates/worker/lazyLoad.test.ts checks that a loaded worker holds none of them.
 */
export const WORKER_LAZY_PACKAGES = [
  'turndown',
  '@modelcontextprotocol/sdk',
  'gray-matter',
  'yaml',
  're2js',
  '@nats-io/transport-node',
  '@nats-io/jetstream',
  '@nats-io/kv'
]

/**
 * How the worker bundle begins: it is the body of Node's CommonJS wrapper function, closed by
 * `})` at its end (see the build below; src/main/runtime/teammates/worker/thread.ts checks it).
 */
export const WORKER_BUNDLE_WRAPPER = '(function (exports, require, module, __filename, __dirname) {'

/** The module whose `Headers` and `FormData` exports the worker bundle uses for those globals (esbuild's inject). */
export const WORKER_FETCH_GLOBALS = 'src/main/runtime/teammates/worker/fetchGlobals.ts'

/**
 * zod's error messages in English only, for the worker bundle: every other locale (about 0.3 MB,
 * 45 languages) reaches the bundle only through the `locales` namespace zod re-exports, which
 * Swarmdesk never reads; its messages are English (zod sets `en` itself). Bundled, they would sit
 * in every worker teammate's isolate (docs/teams.md#worker-teammate-memory).
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: dirname(args.path),
      loader: 'js'
    }))
  }
}

/** Options both bundles share. */
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  external: ['node-pty', 'sh-syntax', 'electron', 'ws', 'bufferutil', 'utf-8-validate'],
  sourcemap: 'linked',
  logLevel: 'warning'
}

await build({
  ...common,
  entryPoints: { cli: NODE_ENTRIES.cli.source },
  outdir: 'out/node',
  outExtension: { '.js': '.mjs' },
  format: 'esm',
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

await build({
  ...common,
  entryPoints: { 'teammate-worker': NODE_ENTRIES['teammate-worker'].source },
  outdir: 'out/node',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // Packages a worker reaches only through a dynamic import (WebFetch's HTML converter, the MCP
  // SDK — a worker's MCP goes through its port —, agent definition frontmatter, the scripted
  // server's YAML, the NATS client of a team on a server) load from node_modules on first use instead: bundled, their source would sit in
  // every worker's isolate, used or not (docs/teams.md#worker-teammate-memory).
  external: [...common.external, ...WORKER_LAZY_PACKAGES],
  plugins: [zodEnglishOnly],
  // every free `Headers` and `FormData` in the bundle (the model SDK builds a Headers per request
  // and asks whether its body is a FormData) is Swarmdesk's own: Node's global ones load its whole
  // fetch (undici, ~2 MB of heap and 40-90 ms of CPU in a fresh worker), which a worker's model
  // requests, made by the main thread, do not need (docs/teams.md#worker-teammate-start-up)
  inject: [WORKER_FETCH_GLOBALS],
  // Every worker teammate holds the bundle's source in its isolate (V8 compiles functions lazily
  // from it). Without comments and indentation it is a third smaller, and ASCII only: one
  // non-Latin-1 character in a comment made V8 keep the whole 4.6 MB source as a two-byte string,
  // 9 MB per worker. Names are kept (no identifier minification), so stack traces still read.
  minifyWhitespace: true,
  charset: 'ascii',
  // the licence comments of bundled packages go to teammate-worker.cjs.LEGAL.txt beside it: in the
  // bundle they would be source every worker holds (and esbuild keeps their non-ASCII letters)
  legalComments: 'external',
  // CommonJS has no import.meta; the sources use import.meta.url only to find files beside them.
  // globalThis.Headers: headers-polyfill, the injected Headers, asks `init instanceof
  // globalThis.Headers` of every init not already its own, and that getter would load undici
  define: { 'import.meta.url': '__sdImportMetaUrl', 'globalThis.Headers': 'undefined' },
  // the file is the CommonJS wrapper function itself, which the bootstrap compiles as it is read:
  // wrapping it there made a second copy of the source and left the first (1.2 MB) as garbage in
  // every worker until a full collection (docs/teams.md#worker-teammate-memory). Not loadable by
  // require(); only the bootstrap loads it.
  banner: {
    js: `${WORKER_BUNDLE_WRAPPER} var __sdImportMetaUrl = require('node:url').pathToFileURL(__filename).href;`
  },
  footer: { js: '})' }
})
