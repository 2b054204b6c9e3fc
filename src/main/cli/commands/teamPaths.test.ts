import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TeamStore } from '../../runtime/teams'
import { runCliText } from '../cli.testkit'

let home: string
let shared: string
beforeEach(async () => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-cli-team-paths-')))
  shared = join(home, 'shared docs')
  mkdirSync(shared)
  await new TeamStore(home).create({
    name: 'review',
    lead: { name: 'team-lead', agentType: 'main', model: 'm', backendType: 'main', cwd: '/w' }
  })
})
afterEach(() => rmSync(home, { recursive: true, force: true }))
/** `bin/swarmdesk ...argv` on `home`, as a user runs it. */
const swarmdesk = (...argv: string[]) => runCliText(argv, { SWARMDESK_HOME: home })

describe('swarmdesk team allow|disallow (docs/teams.md#allowed-paths)', () => {
  it("adds a directory to the team's allowed paths and takes it off, as team show then says", async () => {
    const allowed = await swarmdesk('team', 'allow', '--team', 'review', shared)
    expect(allowed).toMatchObject({ code: 0, stderr: '' })
    expect(allowed.stdout).toBe(`Allowed paths of team 'review':\n  ${shared}\n`)
    expect((await swarmdesk('team', 'show', '--team', 'review')).stdout).toContain(`allowed paths: ${shared}`)
    expect(new TeamStore(home).read('review').allowedPaths).toEqual([shared])

    const taken = await swarmdesk('team', 'disallow', '--team', 'review', shared)
    expect(taken).toMatchObject({ code: 0, stdout: "Team 'review' has no allowed paths.\n" })
    expect(new TeamStore(home).read('review').allowedPaths).toEqual([])
  })

  it('says what is wrong: no team, no directory, an unknown team, /', async () => {
    expect(await swarmdesk('team', 'allow', shared)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^swarmdesk team allow: --team is required/)
    })
    expect(await swarmdesk('team', 'allow', '--team', 'review')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/give exactly one directory/)
    })
    expect(await swarmdesk('team', 'disallow', '--team', 'no-such-team', shared)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^swarmdesk team disallow: .*no-such-team/)
    })
    expect(await swarmdesk('team', 'allow', '--team', 'review', '/')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/every file on the machine/)
    })
  })
  it('refuses a file, and warns of a directory that does not exist here but adds it', async () => {
    const file = join(shared, 'notes.md')
    writeFileSync(file, 'notes\n')
    expect(await swarmdesk('team', 'allow', '--team', 'review', file)).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `swarmdesk team allow: ${file} is a file, not a directory: allowed paths are folders; give the folder it is in (${shared})\n`
    })
    expect(new TeamStore(home).read('review').allowedPaths).toEqual([])

    const later = join(home, 'made later')
    const added = await swarmdesk('team', 'allow', '--team', 'review', later)
    expect(added).toMatchObject({ code: 0, stdout: `Allowed paths of team 'review':\n  ${later}\n` })
    expect(added.stderr).toBe(
      `swarmdesk team allow: warning: ${later} does not exist on this machine; it is allowed all the same, for when it is made or for a teammate on another host.\n`
    )
    expect(new TeamStore(home).read('review').allowedPaths).toEqual([later])
  })
  it('says so, exit 2, when disallowing a path the team does not have', async () => {
    await swarmdesk('team', 'allow', '--team', 'review', shared)
    const other = join(home, 'other')
    expect(await swarmdesk('team', 'disallow', '--team', 'review', other)).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `swarmdesk team disallow: ${other} is not among the allowed paths of team 'review': nothing changed (swarmdesk team show --team review lists them).\n`
    })
    expect(new TeamStore(home).read('review').allowedPaths).toEqual([shared])
  })
})
