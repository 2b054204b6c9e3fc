import { FAST_MODEL } from '../model'
import { ASYNC_ALLOWED_TOOL_NAMES } from '../tools'
import {
  EXPLORE_PROMPT,
  GENERAL_PURPOSE_PROMPT,
  PLAN_PROMPT,
  VERIFICATION_PROMPT,
  WORKER_PROMPT
} from './builtinPrompts'
import type { AgentDefinition } from './schema'

const BUILTIN = { kind: 'builtin' } as const

/** Tools a read-only built-in never gets (docs/agents.md#agent-definitions: "no Agent/Edit/Write"). */
const READ_ONLY_DISALLOWED = ['Agent', 'Edit', 'Write', 'NotebookEdit']

/**
 * The built-in agent definitions (docs/agents.md#agent-definitions), in the order they are listed to the model. `fork`
 * is synthetic (docs/agents.md#forks) and is not a definition. A custom file of the same name overrides a
 * built-in, as in Claude Code.
 *
 * - `general-purpose`: every tool the parent may pass on; the parent's model.
 * - `Explore`: read-only, no project instructions or git status, the fast model.
 * - `Plan`: read-only, no project instructions or git status, the parent's model.
 * - `verification`: runs in the background; may not Edit the project or spawn, keeps Write for
 *   scratch files under the temp dir (its prompt limits writes to there; the permission engine
 *   asks for writes outside the workspace). Its report is checked by `checkVerificationReport`.
 * - `worker`: coordinator mode's worker (docs/agents.md#coordinator-mode): the async tool set, no coordination tools.
 */
export const BUILTIN_AGENTS: readonly AgentDefinition[] = [
  {
    name: 'general-purpose',
    description:
      'General-purpose agent for multi-step tasks: researching questions, searching code, and making and testing changes. Use it when a task needs several steps or when you are not sure where to look.',
    disallowedTools: [],
    model: 'inherit',
    background: false,
    omitClaudeMd: false,
    systemPrompt: GENERAL_PURPOSE_PROMPT,
    source: BUILTIN
  },
  {
    name: 'Explore',
    description:
      'Fast read-only agent for finding things in the codebase: files by pattern, code by keyword, how something works. Reports findings as path:line. Say how thorough to be: quick, medium or very thorough.',
    disallowedTools: READ_ONLY_DISALLOWED,
    model: FAST_MODEL,
    background: false,
    omitClaudeMd: true,
    systemPrompt: EXPLORE_PROMPT,
    source: BUILTIN
  },
  {
    name: 'Plan',
    description:
      'Read-only agent that researches the code and returns a step-by-step implementation plan naming files, tests and risks. Use it before a change that spans several files.',
    disallowedTools: READ_ONLY_DISALLOWED,
    model: 'inherit',
    background: false,
    omitClaudeMd: true,
    systemPrompt: PLAN_PROMPT,
    source: BUILTIN
  },
  {
    name: 'verification',
    description:
      'Background agent that checks independently whether finished work does what it claims, by running commands; every check shows the command and its output, and it ends with VERDICT: PASS, FAIL or PARTIAL.',
    disallowedTools: ['Agent', 'Edit', 'NotebookEdit'],
    model: 'inherit',
    background: true,
    omitClaudeMd: false,
    systemPrompt: VERIFICATION_PROMPT,
    source: BUILTIN
  },
  {
    name: 'worker',
    description:
      'Coordinator-mode worker: carries out one directive directly and reports Scope, Result, Key files, Files changed and Issues.',
    tools: [...ASYNC_ALLOWED_TOOL_NAMES],
    disallowedTools: [],
    model: 'inherit',
    background: true,
    omitClaudeMd: false,
    systemPrompt: WORKER_PROMPT,
    source: BUILTIN
  }
]

/** Names no custom file may take: `fork` is the synthetic fork subagent (docs/agents.md#forks). */
export const RESERVED_AGENT_NAMES: readonly string[] = ['fork']
