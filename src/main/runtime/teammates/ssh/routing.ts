import type { OutgoingMessage } from '../../mailbox'
import type { TeammateExecutor, TeammateHandle, TeammateSpawnConfig } from '../executor'
import type { SshTeammateExecutor } from './executor'

/**
 * The `process` backend of a session with teammate hosts (docs/hosts.md#spawning-on-a-host): a
 * spawn that names a host goes to `remote` (ssh), any other to `local` (a process here); every
 * later call goes to whichever started that teammate.
 */
export class HostRoutingExecutor implements TeammateExecutor {
  readonly backend = 'process' as const

  constructor(
    private readonly local: TeammateExecutor,
    private readonly remote: SshTeammateExecutor
  ) {}

  spawn(config: TeammateSpawnConfig): Promise<TeammateHandle> {
    return config.host ? this.remote.spawn(config) : this.local.spawn(config)
  }

  sendMessage(agentId: string, message: OutgoingMessage): Promise<void> {
    return this.of(agentId).sendMessage(agentId, message)
  }

  kill(agentId: string, reason?: string): Promise<void> {
    return this.of(agentId).kill(agentId, reason)
  }

  interrupt(agentId: string): boolean {
    return this.of(agentId).interrupt(agentId)
  }

  isAlive(agentId: string): boolean {
    return this.of(agentId).isAlive(agentId)
  }

  resize(agentId: string, cols: number, rows: number): boolean {
    return this.of(agentId).resize?.(agentId, cols, rows) ?? false
  }

  sync(agentId: string): void {
    this.of(agentId).sync?.(agentId)
  }

  prewarm(): void {
    this.local.prewarm?.()
  }

  releaseSpare(): Promise<void> {
    return this.local.releaseSpare?.() ?? Promise.resolve()
  }

  async dispose(): Promise<void> {
    await Promise.all([this.local.dispose(), this.remote.dispose()])
  }

  private of(agentId: string): TeammateExecutor {
    return this.remote.knows(agentId) ? this.remote : this.local
  }
}
