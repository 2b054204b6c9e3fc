import { describe, expect, it } from 'vitest'
import { ScriptUnavailableError } from './errors'
import { parseScenario } from './scenario'
import { ScriptBook, pickTurn } from './scriptBook'

const scenario = parseScenario(
  `
name: book
agents:
  team-lead: [ { text: one }, { text: on-review, when: "please review" }, { text: two } ]
  "type:Explore": [ { text: explore } ]
  "*": [ { text: anyone } ]
`,
  'book.yaml'
)

describe('script selection', () => {
  it('prefers a matching when-turn, else the next plain turn, each used once', () => {
    const turns = scenario.agents['team-lead']
    expect(pickTurn(turns, new Set(), 'nothing special')).toBe(0)
    expect(pickTurn(turns, new Set([0]), 'nothing special')).toBe(2)
    expect(pickTurn(turns, new Set([0]), 'could you please review this')).toBe(1)
    expect(pickTurn(turns, new Set([0]), 'Please Review')).toBe(2) // case-sensitive
    expect(pickTurn(turns, new Set([0, 2]), 'nothing')).toBeUndefined()
  })

  it('picks by name, then type, then *, and gives each instance its own copy', () => {
    const book = new ScriptBook(scenario)
    expect(book.select({ name: 'team-lead', id: 'L' }, '').turn.text).toBe('one')
    expect(book.select({ name: 'Explore-1', type: 'Explore', id: 'E1' }, '').turn.text).toBe('explore')
    expect(book.select({ name: 'Explore-2', type: 'Explore', id: 'E2' }, '').turn.text).toBe('explore')
    expect(book.select({ name: 'bob', type: 'general-purpose', id: 'B' }, '').scriptKey).toBe('*')
    expect(book.select({ name: 'team-lead', id: 'L' }, '').turn.text).toBe('two')
  })

  it('reports exhaustion naming the agent and the script', () => {
    const book = new ScriptBook(scenario)
    book.select({ type: 'Explore', id: 'E1' }, '')
    const error = (() => {
      try {
        book.select({ type: 'Explore', id: 'E1' }, '')
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(ScriptUnavailableError)
    expect((error as Error).message).toMatch(
      /^\(scenario exhausted\) agent '\(no name\)', type 'Explore', id 'E1' .*script 'type:Explore'/
    )
  })

  it('in a strict scenario refuses an agent no script names; otherwise answers it with a fixed text', () => {
    const strict = new ScriptBook({ ...scenario, strict: true, agents: { 'team-lead': [{ text: 'x' }] } })
    expect(() => strict.select({ name: 'bob', id: 'B' }, '')).toThrow(/^\(no script\) no script for agent 'bob'/)
    const lax = new ScriptBook({ ...scenario, agents: { 'team-lead': [{ text: 'x' }] } })
    for (let i = 0; i < 3; i++) expect(lax.select({ name: 'bob', id: 'B' }, '').turn.text).toContain("agent 'bob'")
  })

  it('fires a turn fault once and then serves that same turn', () => {
    const book = new ScriptBook({ ...scenario, agents: { '*': [{ text: 'a', fault: 'rate_limit' }, { text: 'b' }] } })
    expect(book.select({ id: 'x' }, '')).toMatchObject({ turnIndex: 0, fault: 'rate_limit' })
    const retry = book.select({ id: 'x' }, '')
    expect(retry.turnIndex).toBe(0)
    expect(retry.fault).toBeUndefined()
    expect(book.select({ id: 'x' }, '')).toMatchObject({ turnIndex: 1 })
  })
})
