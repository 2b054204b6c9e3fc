/**
 * Issue 10's fuzz test of the web host's WebSocket bridge, over real sockets against a real
 * workspace: 10,000 malformed request payloads on every channel (from the contract's own schemas,
 * testkit/ipcFuzz.testkit.ts) are each answered by an error frame with a typed error naming the channel;
 * malformed frames (not JSON, binary, oversized, not a request, no integer id, hostile JSON) end
 * only their own socket with the RFC 6455 code the bridge documents; nothing is pushed, nothing
 * on disk changes, no prototype is polluted, and the host still serves a valid prompt afterwards.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitFor } from '../runtime/pty/pty.testkit'
import type { WebSocket } from 'ws'
import { requestChannels, type WorkspaceSnapshot } from '../../shared/ipc'
import { fuzzCases, seededRandom } from '../testkit/ipcFuzz.testkit'
import { WorkspaceService } from '../app/service'
import { CloseCode } from './bridge'
import { startHostFixture, type HostFixture } from './hostFixture.testkit'
import { closed, FrameLog, openSocket } from './host.testkit'

let root: string
let home: string
let service: WorkspaceService
let fx: HostFixture

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-bridgefuzz-')))
  home = join(root, 'home')
  const cwd = join(root, 'repo')
  execFileSync('git', ['init', '-q', '-b', 'main', cwd])
  writeFileSync(join(root, 'scenario.yaml'), 'agents:\n  team-lead:\n    - text: "still answering"\n')
  service = await WorkspaceService.start({ cwd, home, scenario: join(root, 'scenario.yaml'), env: {} })
  fx = await startHostFixture(service)
})
afterAll(async () => {
  await fx?.dispose()
  await service?.dispose()
  rmSync(root, { recursive: true, force: true })
})

async function connect(): Promise<{ socket: WebSocket; log: FrameLog }> {
  const attempt = await openSocket(fx.host.port, `/bridge?token=${fx.host.token}`)
  if (attempt.kind !== 'open') throw new Error(`bridge refused: ${attempt.status}`)
  return { socket: attempt.socket, log: new FrameLog(attempt.socket) }
}

type ResponseFrame = {
  kind: 'response'
  id: number
  ok: boolean
  result?: unknown
  error?: { name: string; message: string }
}

/** Sends request frames and resolves each one's response by id. */
async function requestAll(
  socket: WebSocket,
  log: FrameLog,
  frames: Array<{ id: number; channel: string; payload: unknown }>
): Promise<ResponseFrame[]> {
  for (const f of frames) socket.send(JSON.stringify({ kind: 'request', ...f }))
  return Promise.all(frames.map((f) => log.next<ResponseFrame>((r) => r.kind === 'response' && r.id === f.id, 60_000)))
}

/** Refused by the bridge whatever the payload: the web host never stores an API key (bridge.ts). */
const KEYCHAIN_CHANNELS = ['settings.setApiKey', 'settings.clearApiKey']

/** The payload as the bridge receives it: JSON turns NaN into null and drops undefined. */
const overTheWire = (payload: unknown): unknown =>
  (JSON.parse(JSON.stringify({ payload })) as { payload?: unknown }).payload

/** Payloads the bridge must refuse as they arrive: the service validates `payload ?? {}`; a dropped payload is an incomplete frame. */
const bridgeRejects = (channel: keyof typeof requestChannels, payload: unknown) => {
  const wire = overTheWire(payload)
  return wire === undefined || !requestChannels[channel].request.safeParse(wire ?? {}).success
}

describe('the WebSocket bridge under malformed input', () => {
  it('answers 10,000 malformed payloads with typed error frames, and changes nothing', async () => {
    const cases = fuzzCases(10_000, 20261202, bridgeRejects)
    for (const channel of Object.keys(requestChannels))
      expect(cases.filter((c) => c.channel === channel).length, channel).toBeGreaterThan(100)
    const { socket, log } = await connect()
    const [before] = await requestAll(socket, log, [{ id: 0, channel: 'workspace.snapshot', payload: {} }])
    // the workspace's own restore files (workspace/restore) are written shortly after start, fuzz or not
    await waitFor(
      () =>
        readdirSync(home, { recursive: true })
          .map(String)
          .some((f) => f.endsWith('workspace.json')) &&
        readdirSync(home, { recursive: true })
          .map(String)
          .some((f) => /\/panes\/[0-9a-f]{32}\.[01]\.out$/.test(f)),
      30_000
    )
    const files = readdirSync(home, { recursive: true }).sort()
    const surprises: string[] = []
    for (let start = 0; start < cases.length; start += 250) {
      const batch = cases.slice(start, start + 250)
      const answers = await requestAll(
        socket,
        log,
        batch.map((c, i) => ({ id: start + i + 1, channel: c.channel, payload: c.payload }))
      )
      answers.forEach((answer, i) => {
        const c = batch[i]!
        // an undefined payload is dropped by JSON: the frame itself is then incomplete
        const [name, named] =
          overTheWire(c.payload) === undefined
            ? ['BridgeFrameError', /^a request frame is \{kind: "request", id, channel, payload\}$/]
            : KEYCHAIN_CHANNELS.includes(c.channel)
              ? ['KeychainRefusedError', /^The web host has no keychain/]
              : [
                  'IpcRequestError',
                  c.mutation === 'unknown channel'
                    ? /^Unknown request channel/
                    : new RegExp(`^Bad payload for '${c.channel.replace(/\./g, '\\.')}'`)
                ]
        if (answer.ok || answer.error?.name !== name || !named.test(answer.error.message))
          surprises.push(`${c.channel} (${c.mutation}): ${JSON.stringify(answer).slice(0, 300)}`)
      })
    }
    expect(surprises).toEqual([])
    expect(log.frames.filter((f) => (f as { kind: string }).kind === 'push')).toEqual([])
    expect(Object.prototype).not.toHaveProperty('polluted')
    const [after] = await requestAll(socket, log, [{ id: 20_000, channel: 'workspace.snapshot', payload: {} }])
    expect(after!.result as WorkspaceSnapshot).toEqual(before!.result)
    expect(readdirSync(home, { recursive: true }).sort()).toEqual(files)
    socket.close()
  }, 180_000)

  it('closes only the socket that sends a malformed frame, with the documented code, and keeps serving', async () => {
    const random = seededRandom(7)
    const junkText = () =>
      Array.from({ length: 1 + Math.floor(random() * 200) }, () =>
        String.fromCharCode(Math.floor(random() * 0xd7ff))
      ).join('')
    const cases: Array<{ what: string; send: (s: WebSocket) => void; code: number }> = [
      { what: 'random text', send: (s) => s.send(junkText()), code: CloseCode.policyViolation },
      {
        what: 'truncated JSON',
        send: (s) => s.send('{"kind":"request","id":1,"chan'),
        code: CloseCode.policyViolation
      },
      { what: 'a binary frame', send: (s) => s.send(Buffer.from([0, 1, 2, 255])), code: CloseCode.unsupportedData },
      { what: 'a JSON array', send: (s) => s.send('[1,2,3]'), code: CloseCode.policyViolation },
      {
        what: 'a string id',
        send: (s) => s.send(JSON.stringify({ kind: 'request', id: '1', channel: 'workspace.snapshot', payload: {} })),
        code: CloseCode.policyViolation
      },
      {
        what: 'a fractional id',
        send: (s) => s.send(JSON.stringify({ kind: 'request', id: 1.5, channel: 'workspace.snapshot', payload: {} })),
        code: CloseCode.policyViolation
      },
      { what: 'JSON null', send: (s) => s.send('null'), code: CloseCode.policyViolation },
      {
        what: 'a frame over the 4 MiB limit',
        send: (s) =>
          s.send(
            JSON.stringify({
              kind: 'request',
              id: 1,
              channel: 'leader.prompt',
              payload: { text: 'x'.repeat(5 * 1024 * 1024) }
            })
          ),
        code: 1009
      }
    ]
    for (const c of cases) {
      const { socket } = await connect()
      const bystander = await connect()
      c.send(socket)
      expect(await closed(socket), c.what).toBe(c.code)
      // the other socket is untouched and still answered
      const [answer] = await requestAll(bystander.socket, bystander.log, [
        { id: 1, channel: 'workspace.snapshot', payload: {} }
      ])
      expect(answer, c.what).toMatchObject({ ok: true })
      bystander.socket.close()
    }
  }, 120_000)

  it('answers well-formed frames that are not requests, or carry hostile JSON, with an error frame', async () => {
    const { socket, log } = await connect()
    const hostile = [
      { kind: 'push', id: 1, channel: 'runtime.event', payload: {} },
      { kind: 'response', id: 2, ok: true, result: {} },
      {
        kind: 'request',
        id: 3,
        channel: 'leader.prompt',
        payload: JSON.parse('{"__proto__":{"polluted":true},"text":"x"}')
      },
      { kind: 'request', id: 4, channel: 'constructor', payload: {} },
      { kind: 'request', id: 5, channel: '__proto__', payload: {} },
      { kind: 'request', id: 6, channel: 'workspace.snapshot', payload: '__deep__' }
    ]
    // arrays nested a million deep (2 MB): written by hand, as JSON.stringify of it would overflow this test's own stack
    for (const frame of hostile)
      socket.send(JSON.stringify(frame).replace('"__deep__"', '['.repeat(1_000_000) + ']'.repeat(1_000_000)))
    const answers = await Promise.all(
      hostile.map((f) => log.next<ResponseFrame>((r) => r.kind === 'response' && r.id === f.id))
    )
    for (const a of answers)
      expect(a, JSON.stringify(a).slice(0, 200)).toMatchObject({
        ok: false,
        error: { name: expect.stringMatching(/^(BridgeFrameError|IpcRequestError)$/) }
      })
    expect(Object.prototype).not.toHaveProperty('polluted')
    // and the same socket still works: a valid prompt runs
    const [ok] = await requestAll(socket, log, [
      { id: 99, channel: 'leader.prompt', payload: { text: 'are you there?' } }
    ])
    expect(ok).toMatchObject({ ok: true })
    await log.next(
      (f: { kind: string; channel?: string; payload?: { type?: string; text?: string } }) =>
        f.kind === 'push' && f.payload?.type === 'assistant_text' && f.payload.text === 'still answering',
      60_000
    )
    socket.close()
  }, 120_000)
})
