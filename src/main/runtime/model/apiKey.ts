import { Emitter, type Disposable } from '../base'

/**
 * The API key of one Swarmdesk process while it runs, shared by its workspaces (issue 29: a first
 * run opens without a key, and a key set later starts the leader at once). The app fills it from
 * the OS keychain and from Settings; `swarmdesk serve` with a key entered for this run only, held
 * here in memory and nowhere else (never written to disk, never sent to a page). The environment's
 * ANTHROPIC_API_KEY, when set, wins over it (see `connectModel`).
 */
export class ApiKeyHolder {
  private readonly changed = new Emitter<void>()
  private key: string | undefined

  constructor(initial?: string) {
    this.key = initial?.trim() || undefined
  }

  /** The key, or undefined when none is set. Never log it. */
  get(): string | undefined {
    return this.key
  }

  /** Replaces the key (`undefined` removes it); listeners hear of it only when it changed. */
  set(key: string | undefined): void {
    const next = key?.trim() || undefined
    if (next === this.key) return
    this.key = next
    this.changed.fire()
  }

  /** Fires after every change of the key; dispose to stop listening. */
  readonly onDidChange = (listener: () => void): Disposable => this.changed.event(listener)
}
