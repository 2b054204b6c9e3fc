import { rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { GitCommandError } from './errors'
import { runGit, serialisePerRepo } from './git'
import { makeRepo, type TestRepo } from './repo.testkit'

let repo: TestRepo | undefined
afterEach(() => repo?.cleanup())

describe('runGit', () => {
  it('retries while another process holds index.lock and succeeds once it is released', async () => {
    repo = makeRepo()
    const lock = path.join(repo.root, '.git', 'index.lock')
    writeFileSync(lock, '')
    writeFileSync(path.join(repo.root, 'new.txt'), 'n\n')
    setTimeout(() => rmSync(lock), 120)
    await runGit(['add', 'new.txt'], repo.root)
    expect(await runGit(['diff', '--cached', '--name-only'], repo.root)).toBe('new.txt\n')
  })

  it('gives up on a lock that is never released, and does not retry other errors', async () => {
    repo = makeRepo()
    writeFileSync(path.join(repo.root, '.git', 'index.lock'), '')
    await expect(runGit(['add', 'README.md'], repo.root, { retryOnLock: false })).rejects.toThrow(/index\.lock/)
    const err = await runGit(['rev-parse', 'no-such-ref'], repo.root).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(GitCommandError)
    expect((err as GitCommandError).args).toEqual(['rev-parse', 'no-such-ref'])
  })
})

describe('serialisePerRepo', () => {
  it('runs tasks of one key one at a time in order, even after a failure, and other keys freely', async () => {
    const log: string[] = []
    const task =
      (name: string, ms: number, fail = false) =>
      async () => {
        log.push(`start ${name}`)
        await new Promise((r) => setTimeout(r, ms))
        log.push(`end ${name}`)
        if (fail) throw new Error(name)
      }
    await Promise.allSettled([
      serialisePerRepo('k', task('a', 30, true)),
      serialisePerRepo('k', task('b', 1)),
      serialisePerRepo('other', task('x', 1))
    ])
    expect(log.filter((l) => !l.endsWith('x'))).toEqual(['start a', 'end a', 'start b', 'end b'])
    expect(log.indexOf('end x')).toBeLessThan(log.indexOf('end a'))
  })
})
