import { resolve } from 'node:path'
import { parseArgs } from 'node:util'

/** How the app was asked to open: which workspace, and whether to use the scripted model. */
export interface LaunchOptions {
  /** Absolute workspace directory. */
  cwd: string
  /** Absolute scenario file of the scripted model (docs/scenarios.md#scripted-model-scenarios); the offline demo uses one. */
  scenario?: string
  /** Open a fresh copy of the bundled demo workspace with its scenario (`--demo`). */
  demo: boolean
  /** Absolute `--mcp-config FILE` files (repeatable; docs/tools.md#mcp-servers), in the order given. */
  mcpConfigFiles: string[]
  /** Open a Claude Code session in a pane of the first workspace at start (`--claude-session`, docs/claude-code.md#sessions-in-panes). */
  claudeSession: boolean
  /** The `claude` to run (`--claude-path FILE`), absolute; default the one on PATH. */
  claudePath?: string
}

/**
 * Reads `--cwd DIR`, `--scenario FILE`, `--mcp-config FILE` (repeatable), `--demo`, `--claude-session` and `--claude-path FILE` from the command line; the workspace is
 * `--cwd`, else SWARMDESK_CWD, else the process's cwd. Relative paths are resolved against the
 * process's cwd. Unknown arguments are ignored: Electron and Chromium add their own switches.
 */
export function parseLaunchOptions(argv: string[], env: NodeJS.ProcessEnv, processCwd: string): LaunchOptions {
  const { values } = parseArgs({
    args: argv,
    strict: false,
    allowPositionals: true,
    options: {
      cwd: { type: 'string' },
      scenario: { type: 'string' },
      demo: { type: 'boolean' },
      'mcp-config': { type: 'string', multiple: true },
      'claude-session': { type: 'boolean' },
      'claude-path': { type: 'string' }
    }
  })
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined)
  const cwd = str(values.cwd) ?? str(env.SWARMDESK_CWD) ?? processCwd
  const scenario = str(values.scenario)
  const claudePath = str(values['claude-path'])
  return {
    cwd: resolve(processCwd, cwd),
    scenario: scenario ? resolve(processCwd, scenario) : undefined,
    demo: values.demo === true,
    mcpConfigFiles: (Array.isArray(values['mcp-config']) ? values['mcp-config'] : [])
      .filter((f): f is string => typeof f === 'string' && f.length > 0)
      .map((f) => resolve(processCwd, f)),
    claudeSession: values['claude-session'] === true,
    ...(claudePath ? { claudePath: resolve(processCwd, claudePath) } : {})
  }
}
