/**
 * The import rules of Swarmdesk's main-process code (docs/design.md#layers), checked by
 * `npm run lint:deps` (part of `npm test`) with dependency-cruiser.
 *
 * The runtime's folders form an order: a folder imports only folders before it in RUNTIME_ORDER,
 * and only through their `index.ts`. The order groups into the layers of docs/design.md; within
 * a layer the order is the one the code needs, so no two folders can import each other.
 * Type-only imports count (tsPreCompilationDeps). Tests and `*.testkit.ts` helpers may reach
 * anywhere; production code never imports a testkit.
 */

/** Runtime folders, lowest first, grouped by layer. */
const RUNTIME_LAYERS = [
  ['base', 'install', 'events', 'locks', 'storage'],
  [
    'processes',
    'mcp',
    'scripted',
    'model',
    'pty',
    'permissions',
    'sandbox',
    'hooks',
    'transcripts',
    'worktrees',
    'mailbox',
    'tasks',
    'teams',
    'teamStore'
  ],
  ['tools'],
  ['loop', 'agentDefinitions', 'coordinator'],
  ['runner'],
  ['subagents', 'teammates'],
  ['session']
]
const RUNTIME_ORDER = RUNTIME_LAYERS.flat()

const TEST = '(\\.test\\.tsx?|\\.testkit\\.ts|\\.spec\\.ts)$'
const RT = '^src/main/runtime/'

/** One rule per folder: it may not import itself-or-later folders other than itself. */
const layerRules = RUNTIME_ORDER.map((folder, index) => {
  const later = RUNTIME_ORDER.slice(index + 1)
  return later.length === 0
    ? null
    : {
        name: `runtime-order:${folder}`,
        comment: `${folder}/ may import only the runtime folders before it (${RUNTIME_ORDER.slice(0, index).join(', ') || 'none'}); see docs/design.md#layers.`,
        severity: 'error',
        from: { path: `${RT}${folder}/`, pathNot: TEST },
        to: { path: `${RT}(${later.join('|')})/` }
      }
}).filter(Boolean)

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'runtime-folder-face',
      comment:
        "Another runtime folder is reached only through its index.ts, the folder's public face (docs/design.md#layers).",
      severity: 'error',
      from: { path: `${RT}([^/]+)/`, pathNot: TEST },
      to: { path: `${RT}[^/]+/`, pathNot: [`${RT}$1/`, `${RT}[^/]+/index\\.ts$`] }
    },
    {
      name: 'outside-reaches-runtime-by-face',
      comment:
        'Code outside the runtime (app, cli, host, electron) reaches a runtime folder only through its index.ts.',
      severity: 'error',
      from: { path: '^src/main/(app|cli|host|electron|workspaces|index\\.ts)', pathNot: TEST },
      to: { path: `${RT}[^/]+/`, pathNot: `${RT}[^/]+/index\\.ts$` }
    },
    {
      name: 'runtime-below-app',
      comment:
        'The runtime is below the application layer and every front end: it never imports src/main/app, cli, host or electron.',
      severity: 'error',
      from: { path: RT, pathNot: TEST },
      to: { path: '^src/main/(app|cli|host|electron|workspaces)/' }
    },
    {
      name: 'app-below-front-ends',
      comment: 'The application layer (src/main/app) is below the CLI, the web host and Electron.',
      severity: 'error',
      from: { path: '^src/main/app/', pathNot: TEST },
      to: { path: '^src/main/(cli|host|electron)/' }
    },
    {
      name: 'shared-is-the-bottom',
      comment: 'src/shared is shared with the renderer: it imports nothing from src/main or src/renderer.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/(main|renderer|preload)/' }
    },
    {
      name: 'no-testkit-in-production',
      comment: 'Test helpers (*.testkit.ts) are for tests only.',
      severity: 'error',
      from: { path: '^src/', pathNot: TEST },
      to: { path: '\\.testkit\\.ts$' }
    },
    {
      name: 'no-circle-between-runtime-folders',
      comment:
        'No import circle leaves a runtime folder and comes back, type-only imports included (the order rules forbid it too; this names the circle).',
      severity: 'error',
      from: { path: `${RT}([^/]+)/`, pathNot: TEST },
      to: { circular: true, via: { path: '^src/', pathNot: `${RT}$1/` } }
    }
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|out|e2e|bench)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.node.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] }
  }
}
