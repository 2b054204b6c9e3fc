import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { EventOf } from '../../shared/events'
import { agentTranscriptPath } from '../runtime/storage/paths'
import { resourcesDir } from '../app/resources'
import { ofType, runCli, useTempWorkspace } from './cli.testkit'

const ws = useTempWorkspace(({ work }) => {
  cpSync(join(resourcesDir(), 'demo', 'project'), work, { recursive: true })
})

describe('swarmdesk run with an agent team (resources/demo/team.yaml)', () => {
  it('runs a team of two worker and one process teammate through five tasks, a permission, messages, shutdown and TeamDelete', async () => {
    const { home, work } = ws
    const scenario = join(resourcesDir(), 'demo', 'team.yaml')
    const run = await runCli(
      ['run', '--cwd', work, '--scenario', scenario, '--approve', 'all', '--json', 'Document this project with a team'],
      { env: { SWARMDESK_HOME: home } }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const started = ofType(run.events, 'agent_started').filter((e) => e.backend)
    expect(started.map((e) => [e.agentName, e.agentId, e.backend, e.parentId]).sort()).toEqual([
      ['alice', 'alice@docs', 'worker', 'team-lead'],
      ['bob', 'bob@docs', 'worker', 'team-lead'],
      ['carol', 'carol@docs', 'process', 'team-lead']
    ])
    // every task completed by a teammate (a process teammate's calls reach the stream from its transcript), the review after the changelog it waits for
    const results = new Map(ofType(run.events, 'tool_result').map((e) => [e.toolUseId, e]))
    const completions = new Map<string, { agentId: string; toolUseId: string }>()
    for (const call of ofType(run.events, 'tool_call')) {
      const input = call.input as { taskId?: string; status?: string }
      if (call.name !== 'TaskUpdate' || input.status !== 'completed' || !call.agentId.endsWith('@docs')) continue
      expect(results.get(call.toolUseId)?.isError).toBe(false)
      completions.set(input.taskId!, { agentId: call.agentId, toolUseId: call.toolUseId })
    }
    expect([...completions.keys()].sort()).toEqual(['1', '2', '3', '4', '5'])
    // when each completion was recorded, from the teammate's own transcript: a process teammate's
    // events reach the stream later, from the tail of that file, so stream order says nothing here
    const sessionId = (run.events.at(-1) as EventOf<'run_finished'>).sessionId!
    const completedAt = (task: string): number => {
      const { agentId, toolUseId } = completions.get(task)!
      const lines = readFileSync(agentTranscriptPath(home, work, sessionId, agentId), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { timestamp: string; message?: { content?: unknown } })
      const line = lines.find(
        (l) =>
          Array.isArray(l.message?.content) &&
          (l.message.content as Array<{ type: string; tool_use_id?: string }>).some(
            (b) => b.type === 'tool_result' && b.tool_use_id === toolUseId
          )
      )
      return Date.parse(line!.timestamp)
    }
    expect(completedAt('5')).toBeGreaterThanOrEqual(completedAt('4'))
    for (const page of ['README.md', 'wordfreq.md', 'format.md', 'testing.md', 'CHANGELOG.md'])
      expect(existsSync(join(work, 'docs', page))).toBe(true)
    // the leader (default mode) asks before handing alice and bob acceptEdits; carol (default mode)
    // asks before each write, through the leader's queue; the workers (acceptEdits) never ask
    const requests = ofType(run.events, 'permission_request')
    const spawns = requests.filter((e) => e.agentName === 'team-lead')
    expect(
      spawns
        .map((e) => [e.tool, (e.input as { name: string; mode: string }).name, (e.input as { mode: string }).mode])
        .sort()
    ).toEqual([
      ['Agent', 'alice', 'acceptEdits'],
      ['Agent', 'bob', 'acceptEdits']
    ])
    const asked = requests.filter((e) => e.agentName !== 'team-lead')
    expect(asked.length).toBeGreaterThan(0)
    expect(new Set(asked.map((e) => `${e.agentName} ${e.tool}`))).toEqual(new Set(['carol Write']))
    expect(asked.map((e) => (e.input as { file_path: string }).file_path)).toContain('docs/README.md')
    const decided = ofType(run.events, 'permission_decided')
    for (const request of asked)
      expect(decided.find((e) => e.requestId === request.requestId)).toMatchObject({
        decision: 'allow',
        by: 'approve-flag',
        agentName: 'carol'
      })
    // teammates talked to each other and to the leader
    const messages = ofType(run.events, 'tool_call').filter(
      (e) => e.name === 'SendMessage' && e.agentId.endsWith('@docs')
    )
    expect(messages.map((e) => (e.input as { to: string }).to).sort()).toEqual(['*', 'team-lead'])
    const sent = ofType(run.events, 'message_sent')
    expect(
      sent
        .filter((e) => e.kind === 'shutdown_request')
        .map((e) => e.to)
        .sort()
    ).toEqual(['alice', 'bob', 'carol'])
    // every teammate's tokens and cost reach the stream (carol's from her transcript)
    for (const name of ['alice', 'bob', 'carol'])
      expect(
        ofType(run.events, 'usage').filter((e) => e.agentName === name && (e.costUsd ?? 0) > 0).length
      ).toBeGreaterThan(0)
    // carol's Explore subagent runs in her process; the stream shows it from its transcript, with her as parent
    const explore = ofType(run.events, 'agent_started').find((e) => e.agentName === 'find-existing-docs')
    expect(explore).toMatchObject({ agentType: 'Explore', parentId: 'carol@docs', depth: 1 })
    const explored = run.events.filter((e) => e.agentId === explore!.agentId)
    expect(ofType(explored, 'tool_call').map((e) => e.name)).toEqual(['Glob'])
    expect(ofType(explored, 'tool_result')[0]!.output).toContain('README.md')
    expect(ofType(explored, 'agent_stopped')).toMatchObject([{ status: 'completed' }])
    // carol's pane is her real terminal
    expect(
      ofType(run.events, 'terminal_output')
        .filter((e) => e.agentName === 'carol')
        .map((e) => e.data)
        .join('')
    ).toContain('Write')
    // all three shut down on request, and the team and its task list are gone
    const stopped = ofType(run.events, 'agent_stopped').filter((e) => e.agentId.endsWith('@docs'))
    expect(stopped.map((e) => [e.agentName, e.status]).sort()).toEqual([
      ['alice', 'exited'],
      ['bob', 'exited'],
      ['carol', 'exited']
    ])
    const leaderSaid = run.events
      .filter((e) => e.agentId === 'team-lead' && (e.type === 'assistant_text' || e.type === 'tool_result'))
      .map((e) => ('text' in e ? e.text : (e as EventOf<'tool_result'>).output))
    expect(leaderSaid.join('\n')).toContain("Team 'docs' deleted")
    expect(existsSync(join(home, 'teams', 'docs'))).toBe(false)
    expect(existsSync(join(home, 'tasks', 'docs'))).toBe(false)
    expect(run.events.at(-1)).toMatchObject({ type: 'run_finished', status: 'ok' })
    // the teammates' transcripts sit beside the leader's
    const projects = readdirSync(join(home, 'projects'))
    const files = readdirSync(join(home, 'projects', projects[0]!, sessionId), { recursive: true }).map(String)
    expect(files.filter((f) => /(alice|bob|carol)@docs/.test(f)).length).toBeGreaterThanOrEqual(3)
    expect(readFileSync(join(work, 'docs', 'README.md'), 'utf8')).toContain('# wordfreq docs')
  }, 60_000)
})
