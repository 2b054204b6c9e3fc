import { describe, expect, it } from 'vitest'
import { FIGURE_SPECS, TEAM_FIGURES } from './goals'
import { startTimingProxy } from './proxy'
import { agentsFigures, cacheReadShare, toolCalls, TOOL_TURNS, toolsFigures, type Req } from './scenarios'
import { figure, median, pairOrder, percentile, verdict, type FigureOrSkipped, type FigureSpec } from './stats'
import { startScriptedServer } from '../../src/main/runtime/scripted'
import { parseScenario } from '../../src/main/runtime/scripted/scenario'
import { TEAM_PROMPT } from './claudeTeam'
import {
  claudeCodeSpawned,
  mateNames,
  pingPongDeliveries,
  pingPongDone,
  pingPongScenario,
  ROUNDS,
  spawnDone,
  spawnErrors,
  spawnMs,
  spawnScenario
} from './teams'

const maxRatio = (value: number, inVerdict = true): FigureSpec => ({
  what: 'test',
  goal: { kind: 'maxRatio', value },
  inVerdict
})

describe('peer benchmark: medians, pairs and the verdict', () => {
  it('takes the median of odd and even counts, and refuses no samples', () => {
    expect(median([5, 1, 3])).toBe(3)
    expect(median([4, 1, 3, 2])).toBe(2.5)
    expect(() => median([])).toThrow(/no samples/)
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50)).toBe(5)
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 99)).toBe(10)
  })

  it('alternates which product runs first in each pair', () => {
    expect([0, 1, 2, 3].map(pairOrder)).toEqual([
      ['swarmdesk', 'claudeCode'],
      ['claudeCode', 'swarmdesk'],
      ['swarmdesk', 'claudeCode'],
      ['claudeCode', 'swarmdesk']
    ])
  })

  it('judges a figure by the ratio of the medians, and its next goal apart', () => {
    const f = figure([10, 30, 20, 25, 15], [40, 40, 50, 30, 40], {
      ...maxRatio(0.6),
      next: { kind: 'maxRatio', value: 0.4 }
    })
    expect(f).toMatchObject({ swarmdesk: 20, claudeCode: 40, ratio: 0.5, goal: 'ratio <= 0.6', pass: true, pairs: 5 })
    expect(f.next).toEqual({ goal: 'ratio <= 0.4', pass: false })
    expect(figure([3], [2], { what: 'share', goal: { kind: 'minRatio', value: 1 }, inVerdict: false }).pass).toBe(true)
    expect(() => figure([1, 2], [1], maxRatio(1))).toThrow(/unpaired/)
  })

  it('has no ratio without the peer: a ratio goal is then unjudged, an absolute one still judged', () => {
    expect(figure([20], undefined, maxRatio(1))).toMatchObject({ claudeCode: null, ratio: null, pass: null })
    expect(figure([20], undefined, { what: 'MiB', goal: { kind: 'maxValue', value: 25 }, inVerdict: true }).pass).toBe(
      true
    )
  })

  it('passes only when every figure in the verdict was measured and met its goal', () => {
    const specs = { a: maxRatio(1), b: maxRatio(1), c: maxRatio(1, false) }
    const good = figure([1], [2], specs.a)
    const bad = figure([3], [2], specs.a)
    const all = (b: FigureOrSkipped): Record<string, FigureOrSkipped> => ({ a: good, b, c: bad })
    expect(verdict(all(good), specs)).toEqual({ verdict: 'pass', failed: [], notMeasured: [] })
    expect(verdict(all(bad), specs)).toEqual({ verdict: 'fail', failed: ['b'], notMeasured: [] })
    expect(verdict(all({ skipped: 'no PTY' }), specs)).toEqual({ verdict: 'fail', failed: [], notMeasured: ['b'] })
    expect(verdict(all(figure([1], undefined, specs.b)), specs).notMeasured).toEqual(['b'])
  })

  it('states a goal for every figure the issue names, the team ones among them', () => {
    for (const name of ['startupMs', 'perTurnMs', 'bashGapMs', 'readGapMs', 'peakMemoryMiB', ...TEAM_FIGURES])
      expect(FIGURE_SPECS[name], name).toBeDefined()
    const inVerdict = Object.entries(FIGURE_SPECS).filter(([, s]) => s.inVerdict)
    expect(inVerdict.map(([n]) => n).sort()).toEqual(
      ['bashGapMs', 'mailboxP50Ms', 'peakMemoryMiB', 'perTurnMs', 'teammateMemoryMiB'].sort()
    )
  })
})

const req = (agentName: string, arrivedAt: number, endedAt: number, last = 'x', bytes = 100): Req => ({
  agentName,
  arrivedAt,
  endedAt,
  bodyBytes: bytes,
  raw: JSON.stringify({ system: 'mentions <task-notification> in a description', messages: [{ content: last }] }),
  promptTokens: 50
})

describe('peer benchmark: figures from the requests of a run', () => {
  it('reads each tool kind’s gap from the end of the answer calling it to the next request', () => {
    const cc = toolCalls('/w', 'claudeCode')
    expect(cc.map((c) => c.kind)).toEqual(toolCalls('/w').map((c) => c.kind))
    expect(cc.filter((c) => c.kind === 'Grep' || c.kind === 'Glob').every((c) => c.name === 'Bash')).toBe(true)
    expect(toolCalls('/w').map((c) => c.name)).toEqual([
      'Read',
      'Grep',
      'Glob',
      'Bash',
      'Edit',
      'Read',
      'Grep',
      'Glob',
      'Bash',
      'Edit'
    ])
    const lead = Array.from({ length: TOOL_TURNS + 1 }, (_, i) => req('team-lead', i * 100, i * 100 + 10 + i))
    const title = req('cc-title', 5, 6, 'x', 300)
    const f = toolsFigures([title, ...lead])
    expect(f.gaps.Read).toEqual([90, 85])
    expect(f.gaps.Bash).toEqual([87, 82])
    expect(f.requestBytesPerTurn).toBe((100 * 11 + 300) / 11)
    expect(f.toolErrors).toBe(0)
    expect(() => toolsFigures(lead.slice(1))).toThrow(/10 leader requests, expected 11/)
    expect(cacheReadShare([title, ...lead], 300)).toBe(300 / 600)
  })

  it('reads spawn, return and notification times of the subagent and the background agent', () => {
    const f = agentsFigures([
      req('team-lead', 0, 10),
      req('look-around', 30, 40),
      req('team-lead', 45, 50, 'explore found 3 files'),
      req('back-job', 70, 400),
      req('team-lead', 72, 80, 'Async agent launched'),
      req('team-lead', 420, 430, '<task-notification>done</task-notification>')
    ])
    expect(f).toEqual({ subagentSpawnMs: 20, subagentReturnMs: 5, backgroundSpawnMs: 20, notificationMs: 20 })
    expect(() => agentsFigures([req('team-lead', 0, 10)])).toThrow(/Explore subagent’s request/)
  })

  it('reads every ping-pong delivery and the spawn of the last teammate', () => {
    const reqs: Req[] = [req('team-lead', 0, 5), req('team-lead', 10, 20)]
    let t = 20
    for (let n = 1; n <= ROUNDS; n++) {
      if (n >= 2) reqs.push(req('bob', (t += 7), (t += 1), `ping ${n}`))
      else reqs.push(req('bob', (t += 30), (t += 1), 'ping 1'))
      reqs.push(req('team-lead', (t += 3), (t += 1), `pong ${n}`))
    }
    expect(pingPongDeliveries(reqs)).toEqual({
      toTeammate: Array.from({ length: ROUNDS - 1 }, () => 7),
      toLeader: Array.from({ length: ROUNDS }, () => 3)
    })
    expect(pingPongDone(reqs)).toBe(true)
    expect(pingPongDone(reqs.slice(0, -1))).toBe(false)
    expect(() => pingPongDeliveries(reqs.slice(0, 4))).toThrow(/bob carrying 'ping 2'/)
    const spawn = [req('team-lead', 0, 5), req('team-lead', 10, 20), req('mate-1', 50, 60), req('mate-0', 40, 45)]
    expect(spawnMs(spawn, mateNames(2))).toBe(30)
    expect(spawnDone(spawn, mateNames(2))).toBe(true)
    expect(spawnDone(spawn, mateNames(3))).toBe(false)
    expect(() => spawnMs(spawn, mateNames(3))).toThrow(/mate-2/)
  })

  it('reads which of Claude Code’s teammates started, and the errors of those that did not', () => {
    const result = (id: string, text: string, isError = false) => ({
      type: 'tool_result',
      tool_use_id: id,
      ...(isError ? { is_error: true, content: text } : { content: [{ type: 'text', text }] })
    })
    const after: Req = {
      ...req('team-lead', 30, 31),
      raw: JSON.stringify({
        messages: [
          { role: 'user', content: TEAM_PROMPT },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'Agent', input: {} }] },
          {
            role: 'user',
            content: [
              result('a', 'Spawned successfully.\nagent_id: mate-0@session-1\nname: mate-0'),
              result('b', 'Lock file is already being held', true),
              result('c', 'Spawned successfully.\nagent_id: mate-2@session-1\nname: mate-2')
            ]
          },
          { role: 'system', content: 'skills' }
        ]
      })
    }
    const before = [req('team-lead', 0, 5), req('team-lead', 10, 20)]
    expect(claudeCodeSpawned(before, mateNames(3))).toBeUndefined()
    expect(claudeCodeSpawned([...before, after], mateNames(3))).toEqual(['mate-0', 'mate-2'])
    expect(spawnErrors([...before, after])).toEqual(['Lock file is already being held'])
    expect(spawnErrors(before)).toEqual([])
  })

  it('starts each product’s team its own way, and the rest of the script is the same', () => {
    const sd = pingPongScenario('t', 'swarmdesk')
    const cc = pingPongScenario('t', 'claudeCode')
    const names = (s: typeof sd, agent: string) =>
      s.agents![agent]!.map((t) => ('tools' in t && t.tools ? t.tools.map((x) => x.name).join('+') : 'text'))
    expect(names(sd, 'team-lead').slice(0, 3)).toEqual(['TeamCreate', 'Agent', 'text'])
    expect(names(cc, 'team-lead').slice(0, 3)).toEqual(['text', 'Agent', 'text'])
    expect(cc.agents!['team-lead']![1]).toMatchObject({ when: TEAM_PROMPT })
    expect(JSON.stringify(cc)).not.toContain('team_name')
    expect(names(sd, 'team-lead').slice(2)).toEqual(names(cc, 'team-lead').slice(2))
    const spawn8 = spawnScenario(8, 't', 'claudeCode')
    expect(spawn8.agents!['team-lead']![1]!.tools!.map((t) => t.input?.name)).toEqual(mateNames(8))
    // every scenario is one the scripted server takes
    for (const s of [sd, cc, spawn8, spawnScenario(4, 't', 'swarmdesk')])
      expect(() => parseScenario(JSON.stringify(s), 'bench.json')).not.toThrow()
  })

  it('times requests through the proxy and tags them so the server log joins them', async () => {
    const server = await startScriptedServer({ scenario: { agents: { '*': [{ text: 'one' }, { text: 'two' }] } } })
    const proxy = await startTimingProxy(server.url)
    try {
      for (let i = 0; i < 2; i++) {
        const r = await fetch(`${proxy.url}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'x-swarmdesk-agent-name': 'a' },
          body: JSON.stringify({
            model: 'claude-sonnet-5-5',
            max_tokens: 10,
            messages: [{ role: 'user', content: 'hi' }]
          })
        })
        expect(JSON.stringify(await r.json())).toContain(i === 0 ? 'one' : 'two')
      }
      const t = proxy.timings()
      expect(t.map((x) => x.seq)).toEqual([0, 1])
      expect(t[0]!.endedAt).toBeGreaterThanOrEqual(t[0]!.arrivedAt)
      expect(t[1]!.arrivedAt).toBeGreaterThanOrEqual(t[0]!.endedAt!)
      expect(t[0]!.bodyBytes).toBeGreaterThan(50)
      expect(server.requests().map((r) => r.headers['x-bench-seq'])).toEqual(['0', '1'])
    } finally {
      await proxy.close()
      await server.close()
    }
  })
})
