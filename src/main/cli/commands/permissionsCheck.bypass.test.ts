import { execFile } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { BYPASS_CASES, SETTINGS_CASES } from '../../runtime/permissions/bypassCases.testkit'
import { fill, fillInput, makeBypassFixture, type BypassFixture } from '../../runtime/permissions/bypassFixture.testkit'
import { SWARMDESK_BIN } from '../cli.testkit'

/**
 * The bypass regression suite (runtime/permissions/bypass.cases.ts) through `bin/swarmdesk
 * permissions check`, as scripts and CI call it: every case in one `--batch` run (one process,
 * so the suite stays fast), a few through `--tool/--input`, and each settings case in its own run.
 * The case-insensitive file-system cases stay in the API suite: they are modelled through a seam
 * in the engine that a separate process cannot reach.
 */
/** Each run starts a Node process; on a loaded 2-core machine one can take several seconds. */
const CLI_TIMEOUT_MS = 120_000

let fx: BypassFixture
let env: Record<string, string>

beforeAll(async () => {
  fx = await makeBypassFixture()
  env = { SWARMDESK_HOME: fx.home, HOME: fx.userHome }
})

/** Runs `bin/swarmdesk …args` with `env` over the process environment; stdout is decision lines, not events. */
function runCli(
  args: string[],
  opts: { env: Record<string, string> }
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [SWARMDESK_BIN, ...args],
      { env: { ...process.env, ...opts.env }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr })
      }
    )
    child.stdin?.end()
  })
}

interface Line {
  decision: string
  reason: string
  rule: { rule: string; source: string } | null
}

describe('permission bypass classes (swarmdesk permissions check)', () => {
  it(
    'decides every case exactly as the table says, in one --batch run',
    async () => {
      const batch = path.join(fx.base, 'batch.jsonl')
      await writeFile(
        batch,
        BYPASS_CASES.map((c) =>
          JSON.stringify({ tool: c.tool, input: fillInput(c.input, fx), mode: c.mode ?? 'default' })
        ).join('\n') + '\n'
      )
      const r = await runCli(
        ['permissions', 'check', '--json', '--cwd', fx.ws, '--settings', fx.sessionSettings, '--batch', batch],
        { env }
      )
      expect(r.code, r.stderr).toBe(0)
      const lines = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Line)
      expect(lines).toHaveLength(BYPASS_CASES.length)
      const wrong = BYPASS_CASES.flatMap((c, i) => {
        const got = lines[i]
        const reasonOk = !c.reason || got.reason.includes(fill(c.reason, fx))
        return got.decision === c.expect && reasonOk
          ? []
          : [
              {
                case: `${c.cls}: ${c.tool} ${JSON.stringify(c.input)} (${c.why})`,
                expected: c.expect,
                reason: c.reason,
                got
              }
            ]
      })
      expect(wrong).toEqual([])
    },
    CLI_TIMEOUT_MS
  )

  it.each(
    BYPASS_CASES.filter((c) => c.expect === 'deny')
      .slice(0, 3)
      .map((c) => [c.why, c] as const)
  )(
    'gives the same answer through --tool/--input: %s',
    async (_why, c) => {
      const args = [
        'permissions',
        'check',
        '--cwd',
        fx.ws,
        '--settings',
        fx.sessionSettings,
        '--tool',
        c.tool,
        '--input',
        JSON.stringify(fillInput(c.input, fx))
      ]
      const r = await runCli(c.mode ? [...args, '--mode', c.mode] : args, { env })
      expect(r.code, r.stderr).toBe(0)
      expect((JSON.parse(r.stdout) as Line).decision).toBe(c.expect)
    },
    CLI_TIMEOUT_MS
  )
})

describe('settings that must not load or must not apply (swarmdesk permissions check)', () => {
  it.each(SETTINGS_CASES.map((c, i) => [c.why, c, i] as const))(
    '%s',
    async (_why, c, i) => {
      const ws = path.join(fx.base, 'cli-settings-cases', String(i))
      await mkdir(path.join(ws, '.swarmdesk'), { recursive: true })
      for (const [rel, data] of Object.entries(c.files))
        await writeFile(path.join(ws, rel), typeof data === 'string' ? data : JSON.stringify(data))
      const args = ['permissions', 'check', '--cwd', ws, '--tool', 'Bash', '--input', '{"command":"touch x"}']
      if (c.trust) args.push('--trust-project')
      if (c.session) args.push('--settings', path.join(ws, c.session))
      const r = await runCli(args, { env })
      if ('error' in c.expect) {
        expect(r.code).toBe(2)
        expect(r.stdout).toBe('')
        expect(r.stderr).toContain('settings do not load')
        expect(r.stderr).toContain(c.expect.error)
        return
      }
      expect(r.code, r.stderr).toBe(0)
      for (const key of c.expect.dropped) expect(r.stderr).toContain(`warning: ignored "${key}"`)
      expect((JSON.parse(r.stdout) as Line).decision).toBe(c.expect.bashTouch)
    },
    CLI_TIMEOUT_MS
  )
})
