import type { PermissionPrompter } from '../permissions/prompter'
import { TeammateExecutorRegistry } from '../teammates/executor'
import { ProcessTeammateExecutor } from '../teammates/process'
import { WorkerTeammateExecutor } from '../teammates/worker'
import { codeCacheDirOf } from '../teammates/worker/codeCache'
import type { TestSessionOptions } from './session.testkit'

/** Both teammate backends for {@link openTestSession}, and their registry once the session made it (to dispose). */
export interface TestTeammateBackends {
  teammates: NonNullable<TestSessionOptions['teammates']>
  registry(): TeammateExecutorRegistry | undefined
}

/**
 * The worker and process backends as a session's `teammates`: worker by default, a worker's
 * permission questions put to `prompter`, both backends' model at the scripted server `modelUrl()`
 * returns (read when a teammate starts, so it may name a server opened after this call).
 */
export function bothTeammateBackends(prompter: PermissionPrompter, modelUrl: () => string): TestTeammateBackends {
  let registry: TeammateExecutorRegistry | undefined
  return {
    registry: () => registry,
    teammates: ({ bus, pty, home }) => {
      registry = new TeammateExecutorRegistry()
      registry.register(new WorkerTeammateExecutor({ bus, pty, prompter, codeCacheDir: codeCacheDirOf(home) }))
      registry.register(new ProcessTeammateExecutor({ bus, pty }))
      return {
        registry,
        defaultBackend: 'worker',
        askPersonForPlans: false,
        modelEnv: () => ({
          ANTHROPIC_BASE_URL: modelUrl(),
          SWARMDESK_SCRIPTED_MODEL_URL: modelUrl(),
          ANTHROPIC_API_KEY: 'test-key'
        })
      }
    }
  }
}
