import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { configWatchContract } from './configWatch.testkit'
import { teamStoreContract, type ContractTarget } from './contract.testkit'
import { startNatsServer, type NatsServer } from './natsServer.testkit'

const home = mkdtempSync(join(tmpdir(), 'swarmdesk-store-nats-'))
let server: NatsServer | undefined
afterAll(async () => {
  await server?.stop()
  rmSync(home, { recursive: true, force: true })
})

let target: Promise<ContractTarget> | undefined
const started = (): Promise<ContractTarget> =>
  (target ??= startNatsServer().then((s) => {
    server = s
    return { home, transport: { kind: 'nats', servers: [s.url] }, livenessTtlMs: 1_000 }
  }))

describe('the team store contract on NATS JetStream', () => {
  teamStoreContract(started)
  configWatchContract(started)

  it('writes nothing of a team under <home>/teams or <home>/tasks', () => {
    expect(existsSync(join(home, 'teams'))).toBe(false)
    expect(existsSync(join(home, 'tasks'))).toBe(false)
  })
})
