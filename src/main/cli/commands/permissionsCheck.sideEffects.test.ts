import { execFile } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { fill, fillInput, type BypassFixture } from '../../runtime/permissions/bypassFixture.testkit'
import {
  makeSideEffectFixture,
  SIDE_EFFECT_EXTRA,
  SIDE_EFFECT_MATRIX
} from '../../runtime/permissions/sideEffectsCases.testkit'
import { SWARMDESK_BIN } from '../cli.testkit'

/**
 * The side-effect suite (runtime/permissions/sideEffects.cases.ts) through `bin/swarmdesk
 * permissions check --batch`, as scripts and CI call it, in one run: every class writing inside
 * the workspace in default mode (the cell an allow rule used to open) and every single case. The API suite
 * decides the whole matrix; each Bash decision parses the command with sh-syntax's WebAssembly
 * build, which takes a noticeable time per command on a loaded machine, so the CLI run keeps to
 * the cells that prove the same engine answers through the command line.
 */
const CLI_TIMEOUT_MS = 300_000
const CASES = [
  ...SIDE_EFFECT_MATRIX.filter((c) => c.why.endsWith(', inside') && c.mode === 'default'),
  ...SIDE_EFFECT_EXTRA
]

let fx: BypassFixture

beforeAll(async () => {
  fx = await makeSideEffectFixture()
})

function runCli(
  args: string[],
  env: Record<string, string>
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [SWARMDESK_BIN, ...args],
      { env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr })
      }
    )
    child.stdin?.end()
  })
}

describe('an allow rule covers the command, not the files it writes (swarmdesk permissions check)', () => {
  it(
    'decides every case of the table in one --batch run',
    async () => {
      const batch = path.join(fx.base, 'batch.jsonl')
      await writeFile(
        batch,
        CASES.map((c) =>
          JSON.stringify({ tool: c.tool, input: fillInput(c.input, fx), mode: c.mode ?? 'default' })
        ).join('\n') + '\n'
      )
      const r = await runCli(
        ['permissions', 'check', '--json', '--cwd', fx.ws, '--settings', fx.sessionSettings, '--batch', batch],
        { SWARMDESK_HOME: fx.home, HOME: fx.userHome }
      )
      expect(r.code, r.stderr).toBe(0)
      const lines = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { decision: string; reason: string })
      expect(lines).toHaveLength(CASES.length)
      const wrong = CASES.flatMap((c, i) => {
        const got = lines[i]
        return got.decision === c.expect && (!c.reason || got.reason.includes(fill(c.reason, fx)))
          ? []
          : [
              {
                case: `${c.input.command ?? JSON.stringify(c.input)} [${c.mode ?? 'default'}] (${c.why})`,
                expected: c.expect,
                got
              }
            ]
      })
      expect(wrong).toEqual([])
    },
    CLI_TIMEOUT_MS
  )
})
