import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { teamStoreContract } from './contract.testkit'
import { startNatsServer, type NatsServer } from './natsServer.testkit'

const home = mkdtempSync(join(tmpdir(), 'swarmdesk-store-nats-'))
let server: NatsServer | undefined
afterAll(async () => {
  await server?.stop()
  rmSync(home, { recursive: true, force: true })
})

describe('the team store contract on NATS JetStream', () => {
  teamStoreContract(async () => {
    server = await startNatsServer()
    return { home, transport: { kind: 'nats', servers: [server.url] }, livenessTtlMs: 1_000 }
  })

  it('writes nothing of a team under <home>/teams or <home>/tasks', () => {
    expect(existsSync(join(home, 'teams'))).toBe(false)
    expect(existsSync(join(home, 'tasks'))).toBe(false)
  })
})
