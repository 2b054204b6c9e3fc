import { mkdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  type ApiKeyStatus,
  type HookListing,
  type ProjectTrust,
  type SettingsPatch,
  type SettingsView,
  WEB_HOST_KEYCHAIN_REFUSAL
} from '../../shared/settings'
import { writeFileAtomicSync } from '../runtime/locks'
import {
  parseRule,
  readSettingsFile,
  RuleSyntaxError,
  SettingsFileSchema,
  trustStatus,
  trustWorkspace,
  untrustedKeys,
  untrustWorkspace,
  type LoadedSettings,
  fieldPath,
  fixHint,
  settingsSourceFiles,
  trustPath
} from '../runtime/permissions'
import type { ApiKeyHolder } from '../runtime/model'
import { applyPatch, commandCount, RULE_KINDS, valuesOf } from './settingsValues'
import {
  changedSettingsFiles,
  readSettingsTexts,
  watchSettingsFiles,
  type SettingsTexts,
  type SettingsWatch
} from './settingsWatch'

/** A Settings request refused: the message names what was wrong and what to do; nothing was changed. */
export class SettingsRefusedError extends Error {
  override readonly name = 'SettingsRefusedError'
}

/**
 * Where the API key is kept (docs/ui.md#the-workspace-ui). The Electron app passes the OS keychain
 * (src/main/electron/secrets.ts); the web host passes none, so its key comes from the environment
 * only. No method ever returns the key.
 */
export interface ApiKeyStore {
  status(): Promise<ApiKeyStatus>
  /**
   * Stores `apiKey`. `acceptUnencrypted`: the person accepted that it is stored without
   * encryption (Linux's `basic_text`).
   * @throws an Error whose message says why it was refused (no encryption; warning not accepted).
   */
  set(apiKey: string, acceptUnencrypted: boolean): Promise<ApiKeyStatus>
  clear(): Promise<ApiKeyStatus>
}

/** Inputs of {@link SettingsControl}. */
export interface SettingsControlOptions {
  /** The workspace, canonical. */
  cwd: string
  home: string
  /** The environment as the person started Swarmdesk (before a stored key was added). */
  env: NodeJS.ProcessEnv
  /** `--settings` files, as given (relative to `cwd`). */
  settingsFiles: string[]
  /** `--trust-project`: trusted for this run whatever `<home>/trusted.json` says. */
  trustProject: boolean
  apiKeys?: ApiKeyStore
  /** The process's live key: where a key for this run only goes (`settings.setRunApiKey`), in memory. */
  runApiKey?: ApiKeyHolder
  /**
   * Settings were reloaded after a change (trust granted or revoked, user settings saved): the
   * runtime applies what may change while it runs (the hooks, the stuck threshold, the panes'
   * scrollback length).
   * @throws to refuse the change's reload (its message is shown).
   */
  applyReloaded(settings: LoadedSettings, from?: readonly string[]): void | Promise<void>
  /**
   * A reload ran: its settings apply now, or (`problem` set) they were refused and the previous
   * ones stay. The workspace pushes the settings as they now stand (`settings.changed`).
   */
  onDidReload?(problem: string | undefined): void
  /** Loads every source as the runtime does (setup.ts `loadWorkspaceSettings`). */
  load(trustProject: boolean): Promise<LoadedSettings>
  /** The watched files' texts as the settings the workspace opened with were read (settingsWatch.ts). */
  openedTexts?: SettingsTexts
}

/**
 * The Settings view's side in main (docs/permissions.md#permissions, docs/ui.md#the-workspace-ui, docs/storage.md#layout): reads and changes the user settings file
 * `<home>/settings.json` (validated with zod, keys the view does not know kept, written to a temp
 * file and renamed), grants and revokes project trust, and reports the API key's status through
 * an {@link ApiKeyStore}. After each change it reloads every settings source as the runtime does
 * and hands the result to {@link SettingsControlOptions.applyReloaded}.
 */
export class SettingsControl {
  /** Changes run one at a time (two windows saving at once must not lose one's keys). */
  private queue: Promise<unknown> = Promise.resolve()
  /** The watched files' texts as the last reload (or the opening) read them. */
  private seen: SettingsTexts
  /** Why the last reload was refused (the previous settings stay), until one succeeds. */
  private problem: string | undefined

  constructor(private readonly options: SettingsControlOptions) {
    this.seen = options.openedTexts ?? new Map()
  }

  /**
   * Every file whose edit may change the settings, absolute, whether it exists or not: the
   * settings sources (docs/permissions.md#permissions) and `<home>/trusted.json`.
   */
  get watchedFiles(): string[] {
    return workspaceSettingsFiles(this.options)
  }

  /** Runs `work` after every change queued before it. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work)
    this.queue = next.catch(() => undefined)
    return next
  }

  /** The user settings file, absolute. */
  get file(): string {
    return join(this.options.home, 'settings.json')
  }

  /** Everything the view shows. */
  async view(): Promise<SettingsView> {
    const raw = await this.readUserFile()
    return {
      file: this.file,
      values: valuesOf(raw),
      dataDir: { path: this.options.home, fromEnv: Boolean(this.options.env.SWARMDESK_HOME) },
      apiKey: await this.apiKeyStatus(),
      project: await this.projectTrust(),
      ...(this.problem ? { reloadProblem: this.problem } : {})
    }
  }

  /**
   * Applies `patch` to the user settings file. Every rule is parsed with the permission engine's
   * own parser, then the whole file is validated with its schema; only then is it written.
   * @throws SettingsRefusedError naming the invalid rule or value; the file is unchanged then.
   */
  update(patch: SettingsPatch): Promise<SettingsView> {
    return this.serial(() => this.applyUpdate(patch))
  }

  private async applyUpdate(patch: SettingsPatch): Promise<SettingsView> {
    const data = structuredClone(await this.readUserFile())
    applyPatch(data, patch)
    if (patch.rules) {
      for (const kind of RULE_KINDS) {
        for (const rule of patch.rules[kind]) {
          try {
            parseRule(rule, this.file, this.options.home)
          } catch (error) {
            if (error instanceof RuleSyntaxError)
              throw new SettingsRefusedError(`The ${kind} rule ${error.message}. Nothing was saved.`)
            throw error
          }
        }
      }
    }
    const checked = SettingsFileSchema.safeParse(data)
    if (!checked.success) {
      const issue = checked.error.issues[0]!
      const field = fieldPath(issue.path)
      throw new SettingsRefusedError(`${field || 'settings'}: ${issue.message}; ${fixHint(field)}. Nothing was saved.`)
    }
    mkdirSync(this.options.home, { recursive: true })
    writeFileAtomicSync(this.file, `${JSON.stringify(data, null, 2)}\n`)
    await this.reload()
    return this.view()
  }

  /**
   * Grants or revokes trust of the workspace in `<home>/trusted.json`, then reloads the settings.
   * @throws SettingsRefusedError when trust comes from `--trust-project` (revoking cannot undo a
   *   flag) or the trust file is invalid (it is never overwritten).
   */
  setTrust(trusted: boolean): Promise<SettingsView> {
    return this.serial(() => this.applyTrust(trusted))
  }

  private async applyTrust(trusted: boolean): Promise<SettingsView> {
    if (!trusted && this.options.trustProject)
      throw new SettingsRefusedError(
        'This run trusts the workspace because it was started with --trust-project; start it without that flag to work untrusted.'
      )
    try {
      if (trusted) await trustWorkspace(this.options.home, this.options.cwd)
      else await untrustWorkspace(this.options.home, this.options.cwd)
    } catch (error) {
      throw new SettingsRefusedError((error as Error).message)
    }
    await this.reload()
    return this.view()
  }

  /** The API key's status: `environment` wins over a stored key; without a store the web host's. */
  async apiKeyStatus(): Promise<ApiKeyStatus> {
    if (this.options.apiKeys) return this.options.apiKeys.status()
    return {
      source: this.options.env.ANTHROPIC_API_KEY ? 'environment' : this.options.runApiKey?.get() ? 'run' : 'none',
      storage: 'environmentOnly',
      warning:
        'The web host has no keychain: its API key comes from the ANTHROPIC_API_KEY environment variable of `swarmdesk serve` (restart it with the variable set), or from a key entered here for this run only, kept in memory and never written to disk.'
    }
  }

  /**
   * Uses `apiKey` for the rest of this run, in memory only (never written, never answered back):
   * every workspace of the process picks it up at once. The environment's key, when set, still wins.
   * @throws SettingsRefusedError when ANTHROPIC_API_KEY is set (it would win: nothing would change).
   */
  async setRunApiKey(apiKey: string): Promise<ApiKeyStatus> {
    if (this.options.env.ANTHROPIC_API_KEY)
      throw new SettingsRefusedError(
        'ANTHROPIC_API_KEY is set in the environment and wins over a key entered here: unset it and restart to use another key.'
      )
    if (!this.options.runApiKey) throw new SettingsRefusedError('This workspace cannot take a key for this run.')
    this.options.runApiKey.set(apiKey)
    return this.apiKeyStatus()
  }

  /**
   * Stores the API key through the store.
   * @throws SettingsRefusedError when there is no store (the web host) or the store refuses.
   */
  async setApiKey(apiKey: string, acceptUnencrypted: boolean): Promise<ApiKeyStatus> {
    const store = this.requireStore()
    try {
      return await store.set(apiKey, acceptUnencrypted)
    } catch (error) {
      throw new SettingsRefusedError((error as Error).message)
    }
  }

  /** Removes the stored API key. @throws SettingsRefusedError when there is no store (the web host). */
  async clearApiKey(): Promise<ApiKeyStatus> {
    const store = this.requireStore()
    try {
      return await store.clear()
    } catch (error) {
      throw new SettingsRefusedError((error as Error).message)
    }
  }

  private requireStore(): ApiKeyStore {
    if (!this.options.apiKeys) throw new SettingsRefusedError(WEB_HOST_KEYCHAIN_REFUSAL)
    return this.options.apiKeys
  }

  /**
   * Reloads after a hand edit of a watched file (settingsWatch.ts, docs/permissions.md#reloading-while-it-runs),
   * in turn with the view's changes, through the same reload as they. Nothing happens when every
   * file reads as the last reload read it: a save here has reloaded already.
   * @returns the files that changed (none: nothing was reloaded).
   * @throws SettingsRefusedError naming the file and what is wrong when the settings no longer
   *   load or their hooks cannot be used: the previous settings stay.
   */
  reloadEdited(): Promise<string[]> {
    return this.serial(async () => {
      const changed = changedSettingsFiles(this.seen, await readSettingsTexts(this.watchedFiles))
      if (changed.length) await this.reload(changed)
      return changed
    })
  }

  /**
   * Follows hand edits of {@link watchedFiles} (docs/permissions.md#reloading-while-it-runs): each
   * reloads through {@link reloadEdited}; `onRefused` gets the message of a reload refused. Its
   * `close` stops the watch and waits for a reload under way.
   */
  watch(onRefused: (message: string) => void): SettingsWatch {
    const watch = watchSettingsFiles({
      files: this.watchedFiles,
      onChange: () => void this.reloadEdited().catch((error: Error) => onRefused(error.message))
    })
    return {
      ready: watch.ready,
      close: async () => {
        await watch.close()
        await this.queue
      }
    }
  }

  /** Reloads every source and applies it; `from`: the files edited by hand (else a change made here). */
  private async reload(from?: string[]): Promise<void> {
    this.seen = await readSettingsTexts(this.watchedFiles)
    const refused = (message: string): SettingsRefusedError => {
      this.problem = from
        ? `${/[.!?]$/.test(message.trim()) ? message.trim() : `${message.trim()}.`} The workspace keeps its previous settings; fix the file and save it, and it applies then.`
        : message
      this.options.onDidReload?.(this.problem)
      return new SettingsRefusedError(from ? `Settings not reloaded from ${from.join(', ')}: ${this.problem}` : message)
    }
    let settings: LoadedSettings
    try {
      settings = await this.options.load(this.options.trustProject)
    } catch (error) {
      throw refused(`${from ? '' : 'Saved, but the settings no longer load: '}${(error as Error).message}`)
    }
    try {
      await this.options.applyReloaded(settings, from)
    } catch (error) {
      if (error instanceof SettingsRefusedError) throw refused(error.message)
      throw error
    }
    this.problem = undefined
    this.options.onDidReload?.(undefined)
  }

  /** The user file as JSON (an empty object when missing). @throws SettingsRefusedError when it is not a JSON object. */
  private async readUserFile(): Promise<Record<string, unknown>> {
    let text: string
    try {
      text = await readFile(this.file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
      throw new SettingsRefusedError(
        `${this.file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`
      )
    }
    let data: unknown
    try {
      data = JSON.parse(text)
    } catch (error) {
      throw new SettingsRefusedError(
        `${this.file} is not valid JSON (${(error as Error).message}); fix it by hand before changing settings here.`
      )
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data))
      throw new SettingsRefusedError(
        `${this.file} must hold a JSON object; fix it by hand before changing settings here.`
      )
    return data as Record<string, unknown>
  }

  private async projectTrust(): Promise<ProjectTrust> {
    const { cwd, home, trustProject } = this.options
    const status = trustProject ? { trusted: true } : await trustStatus(home, cwd)
    const trusted = status.trusted
    const files = settingsSourceFiles({ cwd, home, extraSettingsFiles: this.options.settingsFiles })
    const ignored: ProjectTrust['ignored'] = []
    const hooks: HookListing[] = []
    for (const file of files) {
      const data = await readSettingsFile(file.path, false).catch(() => undefined)
      if (!data) continue
      const active = trusted || file.scope === 'user' || file.scope === 'session'
      if (!active) for (const key of untrustedKeys(data)) ignored.push({ key, file: file.path })
      for (const [event, entries] of Object.entries(data.hooks ?? {}))
        hooks.push({ event, file: file.path, scope: file.scope, commands: commandCount(entries), active })
    }
    return {
      workspace: cwd,
      trusted,
      via: trustProject ? 'flag' : trusted ? 'file' : 'none',
      ignored,
      hooks,
      ...('problem' in status && status.problem ? { problem: status.problem } : {})
    }
  }
}

/**
 * The files a workspace's settings are read from (docs/permissions.md#permissions), whether they
 * exist or not, and the trust file that decides whether the project's count: what a running
 * workspace watches (docs/permissions.md#reloading-while-it-runs).
 */
export function workspaceSettingsFiles(o: { cwd: string; home: string; settingsFiles: readonly string[] }): string[] {
  const sources = settingsSourceFiles({ cwd: o.cwd, home: o.home, extraSettingsFiles: [...o.settingsFiles] })
  return [...sources.map((f) => f.path), trustPath(o.home)]
}
