import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startScriptedServer } from '../runtime/scripted'
import { ofType, runCli, tempWorkspace } from './cli.testkit'

let home: string
let work: string
let cleanup: () => void
beforeEach(() => {
  ;({ home, work, cleanup } = tempWorkspace())
  writeFileSync(join(work, 'CLAUDE.md'), 'INSTRUCTIONS-MARKER\n')
  writeFileSync(join(work, 'todo.txt'), 'TODO: ship it\n')
})
afterEach(() => cleanup())

describe('swarmdesk run with subagents', () => {
  it('streams a built-in Explore and a background agent: parent and depth, one notification, and the Explore request is read-only without project instructions', async () => {
    const scenario = join(home, 's.yaml')
    writeFileSync(
      scenario,
      `agents:
  team-lead:
    - tools:
        - { name: Agent, input: { subagent_type: Explore, description: "find todos", prompt: "Find TODOs" } }
        - { name: Agent, input: { description: "count files", prompt: "Count files", run_in_background: true } }
    - text: "waiting for the count"
    - when: "<task-notification>"
      text: "all done"
  "type:Explore":
    - tools: [{ name: Grep, input: { pattern: "TODO", output_mode: content } }]
    - text: "found: {{last_tool_result}}"
  count-files:
    - tools: [{ name: Glob, input: { pattern: "*" } }]
    - text: "counted"
`
    )
    // The CLI talks to the scripted model as to any Anthropic-compatible endpoint, so its requests can be inspected.
    const server = await startScriptedServer({ scenario })
    let run: Awaited<ReturnType<typeof runCli>>
    try {
      run = await runCli(['run', '--cwd', work, '--json', 'survey'], {
        env: {
          SWARMDESK_HOME: home,
          ANTHROPIC_API_KEY: 'test-key',
          ANTHROPIC_BASE_URL: server.url,
          SWARMDESK_SCRIPTED_MODEL_URL: server.url
        }
      })
    } finally {
      await server.close()
    }
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const requests = server.requests()
    const exploreBody = requests.find((r) => r.agentName === 'find-todos')!.body as {
      tools: Array<{ name: string }>
      system: unknown
    }
    const exploreTools = exploreBody.tools.map((t) => t.name)
    for (const forbidden of ['Edit', 'Write', 'Agent', 'TaskStop']) expect(exploreTools).not.toContain(forbidden)
    expect(exploreTools).toEqual(expect.arrayContaining(['Read', 'Glob', 'Grep', 'Bash']))
    expect(JSON.stringify(exploreBody.system)).not.toContain('INSTRUCTIONS-MARKER')
    expect(
      JSON.stringify((requests.find((r) => r.agentName === 'team-lead')!.body as { system: unknown }).system)
    ).toContain('INSTRUCTIONS-MARKER')
    // Explore runs on the fast model, recorded in its agent_started event
    expect((requests.find((r) => r.agentName === 'find-todos')!.body as { model: string }).model).toBe(
      'claude-haiku-5-5'
    )
    const started = ofType(run.events, 'agent_started')
    // The two Agent calls of one turn start concurrently, so their agent_started events come in either order.
    expect(started[0]).toMatchObject({ agentName: 'team-lead', agentType: 'main', depth: 0 })
    expect(
      started
        .slice(1)
        .map((s) => [s.agentName, s.agentType, s.parentId ?? null, s.depth])
        .sort()
    ).toEqual([
      ['count-files', 'general-purpose', 'team-lead', 1],
      ['find-todos', 'Explore', 'team-lead', 1]
    ])
    const background = started.find((s) => s.agentName === 'count-files')!
    expect(ofType(run.events, 'task_notification')).toEqual([
      expect.objectContaining({ status: 'completed', agentName: 'team-lead', taskId: background.agentId })
    ])
    expect(ofType(run.events, 'agent_stopped').map((s) => [s.agentName, s.status])).toEqual(
      expect.arrayContaining([
        ['find-todos', 'completed'],
        ['count-files', 'completed']
      ])
    )
    const explore = ofType(run.events, 'tool_result').find(
      (r) => r.agentName === 'team-lead' && r.output.startsWith('found:')
    )!
    expect(explore.output).toContain('TODO: ship it')
    expect(run.events.at(-1)).toMatchObject({ type: 'run_finished', status: 'ok' })
  })
})

describe('swarmdesk run --fork', () => {
  it('forks the leader for Agent calls without a type: background forks, one notification each', async () => {
    const scenario = join(home, 'fork.yaml')
    writeFileSync(
      scenario,
      `agents:
  team-lead:
    - tools:
        - { name: Agent, input: { description: "left half", prompt: "Take the left half." } }
        - { name: Agent, input: { description: "right half", prompt: "Take the right half." } }
    - text: "forked"
    - when: "<task-notification>"
      text: "one half back"
    - when: "<task-notification>"
      text: "both halves back"
  "type:fork":
    - text: "Scope: a half. Result: done."
`
    )
    const run = await runCli(['run', '--cwd', work, '--scenario', scenario, '--fork', '--json', 'split it'], {
      env: { SWARMDESK_HOME: home }
    })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const forks = ofType(run.events, 'agent_started').filter((s) => s.agentType === 'fork')
    // The two Agent calls run in parallel, so their start order is not fixed.
    expect(forks.map((f) => [f.agentName, f.parentId, f.depth]).sort()).toEqual([
      ['left-half', 'team-lead', 1],
      ['right-half', 'team-lead', 1]
    ])
    expect(ofType(run.events, 'task_notification')).toHaveLength(2)
    expect(run.events.at(-1)).toMatchObject({ type: 'run_finished', status: 'ok' })
  })
})

describe('swarmdesk run --coordinator', () => {
  it('runs the built-in coordinator and worker definitions: coordinator tools only, workers async with their own prompt and no coordination tools, forks refused though --fork is given', async () => {
    const scenario = join(home, 'coord.yaml')
    writeFileSync(
      scenario,
      `agents:
  team-lead:
    - tools:
        - { name: Agent, input: { description: "survey todos", prompt: "Find the TODOs." } }
        - { name: Agent, input: { subagent_type: worker, description: "count files", prompt: "Count the files." } }
        - { name: Agent, input: { subagent_type: Explore, description: "not a worker", prompt: "x" } }
    - text: "dispatched"
    - when: "<task-notification>"
      text: "one back"
    - when: "<task-notification>"
      text: "both back"
  survey-todos:
    - tools: [{ name: Grep, input: { pattern: "TODO", output_mode: content } }]
    - text: "Scope: todos. Result: {{last_tool_result}}"
  count-files:
    - text: "Scope: count. Result: 2 files."
`
    )
    const server = await startScriptedServer({ scenario })
    let run: Awaited<ReturnType<typeof runCli>>
    try {
      run = await runCli(['run', '--cwd', work, '--coordinator', '--fork', '--json', 'survey the project'], {
        env: {
          SWARMDESK_HOME: home,
          ANTHROPIC_API_KEY: 'test-key',
          ANTHROPIC_BASE_URL: server.url,
          SWARMDESK_SCRIPTED_MODEL_URL: server.url
        }
      })
    } finally {
      await server.close()
    }
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    type Body = { tools: Array<{ name: string }>; system: Array<{ text: string }> }
    const first = (name: string) => server.requests().find((r) => r.agentName === name)!.body as unknown as Body
    const lead = first('team-lead')
    expect(lead.tools.map((t) => t.name)).toEqual(['Read', 'Glob', 'Grep', 'Agent', 'SendMessage', 'TaskStop'])
    expect(lead.system.map((b) => b.text).join('\n')).toContain('You are the coordinator of a Swarmdesk session')
    // both Agent calls became workers (no fork, though --fork was given: the coordinator wins), run in the background
    const started = ofType(run.events, 'agent_started').filter((s) => s.depth === 1)
    expect(started.map((s) => [s.agentName, s.agentType]).sort()).toEqual([
      ['count-files', 'worker'],
      ['survey-todos', 'worker']
    ])
    for (const name of ['survey-todos', 'count-files']) {
      const body = first(name)
      const tools = body.tools.map((t) => t.name)
      for (const forbidden of ['Agent', 'SendMessage', 'TaskStop', 'TeamCreate', 'TeamDelete'])
        expect(tools).not.toContain(forbidden)
      expect(tools).toEqual(expect.arrayContaining(['Read', 'Edit', 'Write', 'Bash', 'Grep']))
      expect(body.system.map((b) => b.text).join('\n')).toContain('You are a worker directed by a coordinator.')
    }
    // a type other than worker is refused, naming what the coordinator may start
    const refused = ofType(run.events, 'tool_result').find((r) => r.agentName === 'team-lead' && r.isError)
    expect(refused?.output).toMatch(/worker/)
    const launches = ofType(run.events, 'tool_result').filter((r) => r.agentName === 'team-lead' && !r.isError)
    expect(launches).toHaveLength(2)
    for (const l of launches) expect(l.output).toContain('async_launched')
    expect(ofType(run.events, 'task_notification').map((n) => n.status)).toEqual(['completed', 'completed'])
    expect(ofType(run.events, 'tool_result').find((r) => r.agentName === 'survey-todos')?.output).toContain(
      'TODO: ship it'
    )
    expect(run.events.at(-1)).toMatchObject({ type: 'run_finished', status: 'ok' })
  })
})
