import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TextBlockParam } from '@anthropic-ai/sdk/resources/messages'
import { SessionMetaSchema, leaderTranscriptPath, sessionDir, type SessionMeta } from '../storage'
import { TranscriptWriter } from '../transcripts'
import { COORDINATOR_PROMPT } from '../coordinator'
import { renderSystemPrompt, resumeHistory, type ProjectContext, type ResumedHistory } from '../runner'
import { rememberNetworkAnswers } from '../sandbox'
import { LEADER_NAME, SessionNotFoundError, type SessionOptions } from './options'

/**
 * The leader's system prompt (docs/loop.md#the-agent-loop): the workspace's context, with the
 * coordinator's role prompt when coordinator mode is on (docs/agents.md#coordinator-mode).
 */
export function renderLeaderSystem(
  options: Pick<SessionOptions, 'cwd' | 'model'>,
  context: ProjectContext,
  coordinator: boolean
): Promise<TextBlockParam[]> {
  return renderSystemPrompt({
    cwd: options.cwd,
    model: options.model,
    context,
    ...(coordinator ? { rolePrompt: COORDINATOR_PROMPT } : {})
  })
}

/** The leader's history as a session opens: what its transcript holds, and how to go on writing it. */
export interface OpenedHistory {
  sessionId: string
  resumed: boolean
  history: Pick<ResumedHistory, 'messages' | 'repair' | 'transcript' | 'warnings'>
}

/**
 * Resumes `options.resumeSessionId` from its transcript, or creates a new session: its folder,
 * `session.json` (docs/storage.md#transcripts) and an empty leader transcript.
 * @throws SessionNotFoundError when the session to resume has no transcript under this workspace
 *   (the message says how to list the workspace's sessions).
 */
export function openLeaderHistory(options: SessionOptions): OpenedHistory {
  if (options.resumeSessionId) {
    const path = leaderTranscriptPath(options.home, options.cwd, options.resumeSessionId)
    if (!existsSync(path)) {
      throw new SessionNotFoundError(
        `No session ${options.resumeSessionId} for workspace ${options.cwd} (looked for ${path}). List sessions with: swarmdesk sessions list --cwd ${options.cwd}`
      )
    }
    return { sessionId: options.resumeSessionId, resumed: true, history: resumeHistory(path, LEADER_NAME) }
  }
  const sessionId = randomUUID()
  const dir = sessionDir(options.home, options.cwd, sessionId)
  mkdirSync(dir, { recursive: true })
  const meta: SessionMeta = {
    schemaVersion: 1,
    sessionId,
    cwd: options.cwd,
    model: options.model,
    createdAt: new Date().toISOString()
  }
  writeFileSync(join(dir, 'session.json'), JSON.stringify(SessionMetaSchema.parse(meta), null, 2))
  const transcript = new TranscriptWriter(leaderTranscriptPath(options.home, options.cwd, sessionId), LEADER_NAME, null)
  return { sessionId, resumed: false, history: { messages: [], repair: undefined, transcript, warnings: [] } }
}

/**
 * The options a session runs with: the caller's, with the project context its subagents read and
 * a prompter that remembers network answers, so a host a person allowed or refused for one agent
 * is answered alike for every agent of the session (docs/sandbox.md).
 */
export function sessionRunOptions(options: SessionOptions, context: ProjectContext): SessionOptions {
  return {
    ...options,
    subagents: options.subagents && { ...options.subagents, projectContext: context },
    prompter: rememberNetworkAnswers(options.prompter)
  }
}
