import { type PtyHost } from '../pty'
import type { EventBus } from '../events'
import type { PermissionPrompter } from '../permissions'
import type { TerminalSize } from '../../../shared/terminalSize'

import { TeammateExecutorRegistry } from './executor'
import { ProcessTeammateExecutor } from './process'
import { SshTeammateExecutor } from './ssh/executor'
import { HostRoutingExecutor } from './ssh/routing'
import { WorkerTeammateExecutor } from './worker'
import { codeCacheDirOf } from './worker/codeCache'
import type { SharedMcp } from './worker/mcpServer'

/**
 * Both teammate backends of a leader session (docs/design.md#process-model, docs/teams.md#spawning-a-teammate): `worker` (a worker thread whose
 * shell commands run in `pty` and whose permission questions go to `prompter`) and `process`
 * (`swarmdesk teammate` in a terminal of `pty`, permission questions through the mailbox; on a
 * host of the `teammateHosts` setting, `ssh` in that terminal, docs/hosts.md). The
 * worker bundle's V8 code cache is kept under `<home>/cache/v8` (`home`: SWARMDESK_HOME). A process
 * teammate's terminal starts at `paneSize(agentId)` when its pane reported one. The caller owns
 * `bus`, `pty` and `prompter`; dispose the registry before the PTY host.
 */
export function createTeammateBackends(options: {
  bus: EventBus
  pty: PtyHost
  prompter: PermissionPrompter
  home: string
  paneSize?: (agentId: string) => TerminalSize | undefined
  /** The session's MCP servers, shared with worker teammates (a process teammate connects its own). */
  mcp?: SharedMcp
}): TeammateExecutorRegistry {
  const registry = new TeammateExecutorRegistry()
  registry.register(
    new WorkerTeammateExecutor({
      bus: options.bus,
      pty: options.pty,
      prompter: options.prompter,
      codeCacheDir: codeCacheDirOf(options.home),
      ...(options.mcp ? { mcp: options.mcp } : {})
    })
  )
  const paneSize = options.paneSize ? { paneSize: options.paneSize } : {}
  // a spawn naming a host runs over ssh (docs/hosts.md#spawning-on-a-host), any other here
  registry.register(
    new HostRoutingExecutor(
      new ProcessTeammateExecutor({ bus: options.bus, pty: options.pty, ...paneSize }),
      new SshTeammateExecutor({ bus: options.bus, pty: options.pty, ...paneSize })
    )
  )
  return registry
}
