import { z } from 'zod'
import { REQUEST_CHANNELS, requestChannels, type RequestChannel } from '../../shared/ipc'

/**
 * Malformed request payloads for every channel of the IPC contract (src/shared/ipc/), for the
 * fuzz tests of the handlers that face the untrusted renderer: the workspace service, Electron's
 * IPC handlers and the web host's WebSocket bridge (issue 10: 10,000 random and malformed payloads,
 * each rejected with a typed error, no crash, no state change).
 *
 * Payloads are derived from each channel's own schema (through its JSON Schema), so a channel added
 * to the contract is fuzzed without touching this file: a nearly valid payload is built, then
 * broken one way (a key dropped, a value of the wrong type or out of range, an extra key such as
 * `__proto__`, a huge or deeply nested value, or junk instead of the payload). Only payloads the
 * schema rejects are returned, so every one of them must be refused. Deterministic for a seed.
 */

/** One fuzz case: a channel (or an unknown name) and a payload its schema rejects. */
export interface FuzzCase {
  channel: string
  payload: unknown
  /** What was broken, for a readable failure. */
  mutation: string
}

type JsonSchema = {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  enum?: unknown[]
  const?: unknown
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  items?: JsonSchema
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
}

/** A small seeded PRNG (mulberry32): uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A value of the schema's own shape, as valid as a generic builder can make it. */
function nearValid(s: JsonSchema): unknown {
  if (s.const !== undefined) return s.const
  if (s.enum?.length) return s.enum[0]
  const alt = s.anyOf ?? s.oneOf
  if (alt?.length) return nearValid(alt[0]!)
  const type = Array.isArray(s.type) ? s.type[0] : s.type
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const key of s.required ?? []) out[key] = nearValid(s.properties?.[key] ?? {})
      return out
    }
    case 'string':
      return 'x'.repeat(Math.max(1, s.minLength ?? 1))
    case 'integer':
    case 'number':
      return Math.max(0, s.minimum ?? 0)
    case 'boolean':
      return true
    case 'array':
      return []
    case 'null':
      return null
    default:
      return {}
  }
}

/** Values of every JSON type and a few that JSON cannot carry, for "wrong type" mutations. */
function junk(rand: () => number): unknown {
  const deep = (n: number): unknown => (n === 0 ? 'bottom' : { d: deep(n - 1) })
  const pool: Array<() => unknown> = [
    () => null,
    () => undefined,
    () => true,
    () => -1,
    () => 1.5,
    () => Number.NaN,
    () => Number.POSITIVE_INFINITY,
    () => '',
    () => ' '.repeat(8),
    () => 'x'.repeat(1_000_001),
    () => [],
    () => [1, 'two', null],
    () => ({}),
    () => deep(200),
    () => JSON.parse('{"__proto__": {"polluted": true}}'),
    () => ({ constructor: { prototype: { polluted: true } } }),
    () => String.fromCharCode(...Array.from({ length: 32 }, () => Math.floor(rand() * 0xffff))),
    () => Math.floor(rand() * 2 ** 53) * (rand() < 0.5 ? -1 : 1)
  ]
  return pool[Math.floor(rand() * pool.length)]!()
}

/** One broken variant of `base` (built from schema `s`). */
function mutate(s: JsonSchema, base: unknown, rand: () => number): { payload: unknown; mutation: string } {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!
  const keys = Object.keys(s.properties ?? {})
  const choice = Math.floor(rand() * 7)
  if (choice === 0 || typeof base !== 'object' || base === null || Array.isArray(base))
    return { payload: junk(rand), mutation: 'junk payload' }
  const obj = { ...(base as Record<string, unknown>) }
  if (choice === 1 && (s.required ?? []).length) {
    const key = pick(s.required!)
    delete obj[key]
    return { payload: obj, mutation: `without required '${key}'` }
  }
  if (choice === 2 && keys.length) {
    const key = pick(keys)
    obj[key] = junk(rand)
    return { payload: obj, mutation: `'${key}' of a wrong type or value` }
  }
  if (choice === 3 && keys.length) {
    const key = pick(keys)
    const p = s.properties![key]!
    const type = Array.isArray(p.type) ? p.type[0] : p.type
    if (type === 'string')
      obj[key] = p.maxLength !== undefined ? 'y'.repeat(p.maxLength + 1) : p.enum ? 'not-one-of-them' : 42
    else if (type === 'integer') obj[key] = rand() < 0.5 ? -1 : 0.5
    else if (type === 'number') obj[key] = Number.NaN
    else obj[key] = 'wrong'
    return { payload: obj, mutation: `'${key}' out of range` }
  }
  if (choice === 4) {
    const extra = pick(['__proto__', 'constructor', 'prototype', 'toString', 'extra', '\u0000', 'a'.repeat(10_000)])
    const withExtra =
      extra === '__proto__' ? JSON.parse(`{"__proto__": {"polluted": true}}`) : { [extra]: { polluted: true } }
    // spread defines `__proto__` as an own key (as JSON.parse does), it does not set the prototype
    return { payload: { ...obj, ...withExtra }, mutation: `extra key '${extra.slice(0, 20)}'` }
  }
  if (choice === 5) return { payload: [obj], mutation: 'payload wrapped in an array' }
  return { payload: JSON.stringify(obj), mutation: 'payload sent as a JSON string' }
}

/**
 * `count` cases spread round-robin over the contract's channels plus unknown channel names (one
 * case in 20), each a payload that `isRejected` confirms the handler must refuse.
 * @param isRejected how the handler under test validates (the service treats a missing payload
 *   as `{}`; Electron's handlers do not), so only payloads it must refuse are produced.
 */
export function fuzzCases(
  count: number,
  seed: number,
  isRejected: (channel: RequestChannel, payload: unknown) => boolean
): FuzzCase[] {
  const rand = seededRandom(seed)
  const schemas = new Map(
    REQUEST_CHANNELS.map((c) => [
      c,
      z.toJSONSchema(requestChannels[c].request, { io: 'input', unrepresentable: 'any' }) as JsonSchema
    ])
  )
  const cases: FuzzCase[] = []
  let i = 0
  // the channels take turns by their own count: indexed by `i`, a contract of a multiple of 20
  // channels would lose one channel's every turn to the unknown names
  let turn = 0
  let attempts = 0
  while (cases.length < count) {
    if (++attempts > count * 50)
      throw new Error(
        `could not build ${count} rejected payloads (built ${cases.length}): the generator no longer fits the contract`
      )
    if (i++ % 20 === 19) {
      cases.push({
        channel: pick(
          [
            '',
            'workspace',
            'constructor',
            '__proto__',
            'leader.prompt ',
            'LEADER.PROMPT',
            'runtime.event',
            'pane.data',
            `x.${Math.floor(rand() * 1e6)}`
          ],
          rand
        ),
        payload: {},
        mutation: 'unknown channel'
      })
      continue
    }
    const channel = REQUEST_CHANNELS[turn++ % REQUEST_CHANNELS.length]!
    const schema = schemas.get(channel)!
    const { payload, mutation } = mutate(schema, nearValid(schema), rand)
    if (isRejected(channel, payload)) cases.push({ channel, payload, mutation })
  }
  return cases
}

function pick<T>(list: readonly T[], rand: () => number): T {
  return list[Math.floor(rand() * list.length)]!
}
