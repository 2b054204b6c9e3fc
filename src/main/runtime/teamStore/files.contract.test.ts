import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe } from 'vitest'
import { configWatchContract } from './configWatch.testkit'
import { teamStoreContract } from './contract.testkit'

const home = mkdtempSync(join(tmpdir(), 'swarmdesk-store-files-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

describe('the team store contract on files', () => {
  teamStoreContract(async () => ({ home, transport: { kind: 'files' } }))
  configWatchContract(async () => ({ home, transport: { kind: 'files' } }))
})
