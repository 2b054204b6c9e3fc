import type { SandboxStatus, SettingsEffective, SettingsView } from '../../shared/settings'
import type { EventBus } from '../runtime/events'
import type { LoadedSettings, PermissionEngine } from '../runtime/permissions'
import { LEADER_NAME, teammateSettings, type Session } from '../runtime/session'
import { paneScrollbackLinesOf } from './paneScrollbackSetting'
import { sandboxStatusOf } from './sandboxView'
import { SettingsRefusedError } from './settingsControl'
import { stuckAfterMinutesOf } from './teamControl'
import type { TeammateHost } from '../../shared/teammateHosts'

/** What {@link LiveSettings.apply} changes besides its own values. */
export interface LiveSettingsTargets {
  /** The current session, whose hooks a reload replaces. */
  session(): Session
  /** The leader's and its subagents' permission engine, whose settings a reload replaces. */
  engine: Pick<PermissionEngine, 'replaceSettings'>
  /** The service's bus: the reload's notices go there. */
  bus: Pick<EventBus, 'emit'>
  /** The `teammateHosts` setting the teammates' supervisor reads at each spawn and resume (opening.ts). */
  teammateHosts?: { current: TeammateHost[] }
}

/**
 * The settings a running workspace follows (the Settings view, docs/permissions.md#permissions, docs/ui.md#the-workspace-ui): the stuck
 * threshold and the panes' scrollback length as they apply now, the spawn form's default backend,
 * and the reload that swaps permission rules and hooks in while the session runs.
 */
export class LiveSettings {
  /** The `stuckAfterMinutes` setting (docs/ui.md#the-workspace-ui). */
  stuckAfterMinutes: number
  /** The `paneScrollbackLines` setting (the page's terminals; main's copies keep their own length). */
  paneScrollbackLines: number
  /** The `teammateBackend` setting, for the spawn form's default (it changes at the next start). */
  readonly defaultBackend: 'worker' | 'process'
  /** The names of the `teammateHosts` setting, for the spawn form (docs/hosts.md#in-the-ui). */
  hostNames: string[]
  /** The Bash sandbox as it applies now (the panes' mark, the Settings view; docs/sandbox.md). */
  sandbox: SandboxStatus

  constructor(
    settings: LoadedSettings,
    private readonly targets: LiveSettingsTargets
  ) {
    this.stuckAfterMinutes = stuckAfterMinutesOf(settings)
    this.paneScrollbackLines = paneScrollbackLinesOf(settings)
    this.defaultBackend = teammateSettings(settings).defaultBackend
    this.hostNames = teammateSettings(settings).hosts.map((h) => h.name)
    this.sandbox = sandboxStatusOf(settings)
  }

  /** A settings view with the values that apply now (the reload after a change has run by then). */
  withEffective(view: SettingsView): SettingsView {
    return { ...view, effective: this.effective() }
  }

  /** The values of the settings the page itself uses, as they apply now. */
  effective(): SettingsEffective {
    return {
      stuckAfterMinutes: this.stuckAfterMinutes,
      paneScrollbackLines: this.paneScrollbackLines,
      sandbox: this.sandbox,
      teammateHosts: [...this.hostNames]
    }
  }

  /**
   * Applies reloaded settings to what may change while the workspace runs: the permission rules
   * of the leader and its subagents (teammates read them when they start), the session's hooks
   * (project trust granted or revoked, docs/permissions.md#permissions), the stuck threshold, the panes' scrollback
   * length and the teammate hosts (the spawn form's list and where spawns and resumes may go,
   * docs/hosts.md#in-the-ui). Everything else (model, mode, backend, switches) is built at start and takes effect at
   * the next start. `from`: the files edited by hand that caused the reload (its notice names them,
   * docs/permissions.md#reloading-while-it-runs); none for a change made in the Settings view.
   * @throws SettingsRefusedError when the new hooks are invalid (the old ones stay).
   */
  apply(settings: LoadedSettings, from: readonly string[] = []): void {
    const { session, engine, bus } = this.targets
    let warnings: readonly string[]
    try {
      warnings = session().replaceHooks(settings.hooks)
    } catch (error) {
      throw new SettingsRefusedError(
        `The settings changed, but their hooks cannot be used, so the previous hooks stay: ${(error as Error).message}`
      )
    }
    engine.replaceSettings(settings)
    this.stuckAfterMinutes = stuckAfterMinutesOf(settings)
    this.paneScrollbackLines = paneScrollbackLinesOf(settings)
    this.sandbox = sandboxStatusOf(settings)
    const hosts = teammateSettings(settings).hosts
    this.hostNames = hosts.map((h) => h.name)
    if (this.targets.teammateHosts) this.targets.teammateHosts.current = hosts
    const active = settings.hooks.reduce((n, h) => n + Object.keys(h.hooks).length, 0)
    const message = `Settings reloaded${from.length ? ` from ${from.join(', ')}` : ''}: ${active === 0 ? 'no hooks are configured' : `hooks for ${active} event${active === 1 ? '' : 's'} apply from now on`}.`
    bus.emit({ type: 'notice', level: 'info', message, agentId: LEADER_NAME, agentName: LEADER_NAME })
    for (const w of warnings)
      bus.emit({ type: 'notice', level: 'warning', message: w, agentId: LEADER_NAME, agentName: LEADER_NAME })
  }
}
