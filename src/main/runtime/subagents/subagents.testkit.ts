import { type PtyHost } from '../pty/types'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RuntimeEvent } from '../../../shared/events'
import type { PermissionPromptAnswer, PermissionPromptRequest } from '../../../shared/permissions'
import { EventBus } from '../events/bus'
import { ModelClient } from '../model/client'
import { loadPermissionSettings, PermissionEngine } from '../permissions'
import type { PermissionPrompter } from '../permissions/prompter'
import { createPtyHost } from '../pty'
import { startScriptedServer, validateScenario, type ScenarioInput, type ScriptedServer } from '../scripted'
import { Session } from '../session/session'
import type { SessionOptions } from '../session/options'
import { ASYNC_ALLOWED_TOOL_NAMES, CORE_TOOLS } from '../tools/registry'
import type { Tool } from '../tools/types'
import type { SubagentDefinition } from './types'

/** Definitions for runtime tests: what the tests need of general-purpose, Explore and worker, nothing more. */
export const TEST_DEFINITIONS: ReadonlyMap<string, SubagentDefinition> = new Map([
  [
    'general-purpose',
    {
      name: 'general-purpose',
      description: 'General work',
      disallowedTools: [],
      background: false,
      omitClaudeMd: false,
      systemPrompt: 'You are a general-purpose agent.'
    }
  ],
  [
    'Explore',
    {
      name: 'Explore',
      description: 'Read-only search',
      tools: ['Read', 'Glob', 'Grep', 'Bash'],
      disallowedTools: [],
      model: 'claude-haiku-4-5',
      background: false,
      omitClaudeMd: true,
      systemPrompt: 'You explore; you never change anything.'
    }
  ],
  [
    'worker',
    {
      name: 'worker',
      description: 'Coordinator worker',
      tools: ['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash', 'BashOutput', 'KillShell'],
      disallowedTools: [],
      background: true,
      omitClaudeMd: false,
      systemPrompt: 'You carry out directives.'
    }
  ],
  [
    'nester',
    {
      name: 'nester',
      description: 'Spawns agents',
      tools: ['Agent', 'Bash'],
      disallowedTools: [],
      background: false,
      omitClaudeMd: true,
      systemPrompt: 'You delegate.'
    }
  ]
])

const NEVER_FOR_SUBAGENTS = new Set([
  'Agent',
  'AskUserQuestion',
  'EnterPlanMode',
  'ExitPlanMode',
  'TaskStop',
  'TeamCreate',
  'TeamDelete'
])

/** docs/agents.md#agent-definitions's filtering order, as simply as these tests need it. */
export function testResolveTools(
  def: SubagentDefinition,
  parentTools: readonly Tool[],
  isAsync: boolean,
  depth: number
): Tool[] {
  return parentTools.filter((t) => {
    const listed = def.tools?.includes(t.name)
    if (def.tools && !listed) return false
    if (NEVER_FOR_SUBAGENTS.has(t.name) && !(t.name === 'Agent' && listed && depth < 5)) return false
    if (isAsync && !ASYNC_ALLOWED_TOOL_NAMES.includes(t.name) && !(t.name === 'Agent' && listed)) return false
    return true
  })
}

/** A session with subagents on the scripted model, in a fresh git workspace. */
export interface SubagentHarness {
  server: ScriptedServer
  session: Session
  bus: EventBus
  events: RuntimeEvent[]
  asked: PermissionPromptRequest[]
  work: string
  /** The session's Swarmdesk home (temporary). */
  home: string
  pty: PtyHost
  close(): Promise<void>
}

/** Starts a {@link SubagentHarness}. `answer` answers permission questions (default: allow). */
export async function startSubagentHarness(
  scenario: ScenarioInput,
  options: {
    answer?: (r: PermissionPromptRequest) => PermissionPromptAnswer
    subagents?: Partial<NonNullable<SessionOptions['subagents']>>
    mode?: SessionOptions['mode']
    hookSettings?: SessionOptions['hookSettings']
    settingsFile?: object
  } = {}
): Promise<SubagentHarness> {
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-sub-')))
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-subhome-')))
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
  writeFileSync(join(work, 'CLAUDE.md'), 'PROJECT-INSTRUCTIONS-MARKER: be careful.\n')
  const gitEnv = {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@t.invalid',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@t.invalid'
  }
  execFileSync('git', ['add', '-A'], { cwd: work })
  execFileSync('git', ['commit', '-q', '-m', 'start'], { cwd: work, env: gitEnv })
  const server = await startScriptedServer({ scenario: validateScenario(scenario, 'test-scenario') })
  const bus = new EventBus()
  const events: RuntimeEvent[] = []
  bus.onEvent((e) => events.push(e))
  const asked: PermissionPromptRequest[] = []
  const prompter: PermissionPrompter = {
    async prompt(request) {
      asked.push(request)
      return options.answer?.(request) ?? { decision: 'allow', by: 'user' }
    }
  }
  const pty = createPtyHost()
  const extra = options.settingsFile ? [join(home, 'session-settings.json')] : []
  if (options.settingsFile) writeFileSync(extra[0]!, JSON.stringify(options.settingsFile))
  const settings = await loadPermissionSettings({ cwd: work, home, extraSettingsFiles: extra })
  const session = await Session.open({
    cwd: work,
    home,
    model: 'claude-sonnet-5-5',
    mode: options.mode ?? 'default',
    client: new ModelClient({ apiKey: 'k', baseURL: server.url, retryBaseDelayMs: 10, scriptedModel: true }),
    bus,
    prompter,
    engine: new PermissionEngine(settings),
    pty,
    tools: [...CORE_TOOLS],
    ...(options.hookSettings ? { hookSettings: options.hookSettings } : {}),
    subagents: {
      definitions: () => TEST_DEFINITIONS,
      resolveTools: testResolveTools,
      resolveModel: (def, arg, parentModel) =>
        arg
          ? { model: arg, source: 'argument' }
          : def.model && def.model !== 'inherit'
            ? { model: def.model, source: 'definition' }
            : { model: parentModel, source: 'parent' },
      ...options.subagents
    }
  })
  return {
    server,
    session,
    bus,
    events,
    asked,
    work,
    home,
    pty,
    async close() {
      await session.close()
      await pty.dispose()
      await server.close()
      rmSync(work, { recursive: true, force: true })
      rmSync(home, { recursive: true, force: true })
    }
  }
}
