import type { HookEvent, HookPayloads } from './events'
import type { HookOutcome } from './outcome'
import type { HookRunner, HookRunOptions } from './runner'

/**
 * A {@link HookRunner} whose configuration can be replaced while the session runs: granting or
 * revoking project trust in Settings (docs/permissions.md#permissions) changes which hooks apply, and the session's
 * subagents and team tools hold this one runner, so they use the new hooks from the next event
 * on. A run already started finishes with the hooks it started with.
 */
export class SwappableHookRunner implements HookRunner {
  constructor(private current: HookRunner) {}

  get warnings(): readonly string[] {
    return this.current.warnings
  }

  has(event: HookEvent): boolean {
    return this.current.has(event)
  }

  run<E extends HookEvent>(event: E, payload: HookPayloads[E], opts?: HookRunOptions): Promise<HookOutcome> {
    return this.current.run(event, payload, opts)
  }

  /** Uses `next` from now on. */
  replace(next: HookRunner): void {
    this.current = next
  }
}
