import { readFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { refuseRepeatedOptions } from '../io'
import { z } from 'zod'
import { PermissionModeSchema, type PermissionMode, type PermissionSubject } from '../../../shared/permissions'
import { loadPermissionSettings, PermissionEngine, type LoadedSettings } from '../../runtime/permissions'

/** Maps a tool call to what the engine decides on (the dispatcher passes the tool registry's mapping). */
export type SubjectResolver = (tool: string, input: unknown, cwd: string) => PermissionSubject

/** Where the command writes and which environment it reads (SWARMDESK_HOME); process's own by default. */
export interface CheckIo {
  stdout: (line: string) => void
  stderr: (line: string) => void
  env: NodeJS.ProcessEnv
}

const BatchLineSchema = z.object({ tool: z.string().min(1), input: z.unknown(), mode: PermissionModeSchema.optional() })

/** Bad usage or input: exit 2 with this message. */
class CheckUsageError extends Error {}

/**
 * `swarmdesk permissions check` (docs/events.md#event-stream-and-command-line): `--cwd DIR [--mode MODE] [--settings FILE]…
 * [--trust-project] [--json] (--tool NAME --input JSON | --batch FILE)`. Prints one JSON line
 * `{"decision","reason","rule"}` per call (`rule`: `{rule, source}` or null); `--json` is accepted
 * for symmetry with the other commands (the output is always JSON). Without `--mode`, the
 * settings' `defaultMode` decides, as in a session (so an untrusted project's
 * `bypassPermissions` is seen to be ignored). Resolves to 0 on any
 * decision, 2 on bad input or settings that do not load (message on stderr naming what was wrong;
 * in a batch, the line number).
 */
export async function permissionsCheckCommand(
  argv: string[],
  resolveSubject: SubjectResolver,
  io?: Partial<CheckIo>
): Promise<number> {
  const out = io?.stdout ?? ((l: string) => void process.stdout.write(l + '\n'))
  const err = io?.stderr ?? ((l: string) => void process.stderr.write(l + '\n'))
  const env = io?.env ?? process.env
  try {
    const args = parseCheckArgs(argv)
    const cwd = path.resolve(args.cwd ?? process.cwd())
    const home = env.SWARMDESK_HOME ? path.resolve(env.SWARMDESK_HOME) : path.join(os.homedir(), '.swarmdesk')
    let settings: LoadedSettings
    try {
      settings = await loadPermissionSettings({
        cwd,
        home,
        extraSettingsFiles: args.settings.map((f) => path.resolve(f)),
        trustProject: args.trustProject
      })
    } catch (e) {
      throw new CheckUsageError(`settings do not load: ${(e as Error).message}`)
    }
    for (const w of settings.warnings) err(`warning: ${w}`)
    const mode = args.mode ?? settings.defaultMode
    const calls = args.batch
      ? await readBatch(args.batch, mode)
      : [{ tool: args.tool as string, input: parseJson(args.input as string, '--input'), mode, where: '--input' }]
    const subjects = calls.map((c) => {
      try {
        return resolveSubject(c.tool, c.input, cwd)
      } catch (e) {
        throw new CheckUsageError(`${c.where}: ${(e as Error).message}`)
      }
    })
    const engine = new PermissionEngine(settings)
    for (let i = 0; i < calls.length; i++) {
      const d = await engine.decide(subjects[i], { cwd, mode: calls[i].mode, tool: calls[i].tool })
      out(JSON.stringify({ decision: d.decision, reason: d.reason, rule: d.rule ?? null }))
    }
    return 0
  } catch (e) {
    if (!(e instanceof CheckUsageError)) throw e
    err(`swarmdesk permissions check: ${e.message}`)
    return 2
  }
}

interface CheckArgs {
  cwd?: string
  mode?: PermissionMode
  settings: string[]
  trustProject: boolean
  tool?: string
  input?: string
  batch?: string
}

function parseCheckArgs(argv: string[]): CheckArgs {
  let values
  const options = {
    cwd: { type: 'string' },
    mode: { type: 'string' },
    settings: { type: 'string', multiple: true },
    'trust-project': { type: 'boolean' },
    json: { type: 'boolean' },
    tool: { type: 'string' },
    input: { type: 'string' },
    batch: { type: 'string' }
  } as const
  try {
    ;({ values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false }))
    refuseRepeatedOptions(argv, options)
  } catch (e) {
    throw new CheckUsageError((e as Error).message)
  }
  const mode = values.mode === undefined ? undefined : PermissionModeSchema.safeParse(values.mode)
  if (mode && !mode.success)
    throw new CheckUsageError(`--mode ${values.mode}: use one of ${PermissionModeSchema.options.join(', ')}`)
  if (values.batch && (values.tool || values.input))
    throw new CheckUsageError('give either --batch FILE or --tool NAME --input JSON, not both')
  if (!values.batch && (!values.tool || values.input === undefined))
    throw new CheckUsageError('missing --tool NAME and --input JSON (or --batch FILE)')
  return {
    cwd: values.cwd,
    mode: mode?.data,
    settings: values.settings ?? [],
    trustProject: values['trust-project'] ?? false,
    tool: values.tool,
    input: values.input,
    batch: values.batch
  }
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text)
  } catch (e) {
    throw new CheckUsageError(`${where} is not JSON (${(e as Error).message})`)
  }
}

/** Every line is checked before any decision is printed, so a bad line never leaves partial output. */
async function readBatch(
  file: string,
  mode: PermissionMode
): Promise<Array<{ tool: string; input: unknown; mode: PermissionMode; where: string }>> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (e) {
    throw new CheckUsageError(`--batch ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`)
  }
  const calls: Array<{ tool: string; input: unknown; mode: PermissionMode; where: string }> = []
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return
    const where = `${file} line ${i + 1}`
    const parsed = BatchLineSchema.safeParse(parseJson(line, where))
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new CheckUsageError(
        `${where}: ${issue.path.join('.') || '(line)'}: ${issue.message}; each line is {"tool": NAME, "input": {...}, "mode"?: MODE}`
      )
    }
    calls.push({ tool: parsed.data.tool, input: parsed.data.input, mode: parsed.data.mode ?? mode, where })
  })
  return calls
}
