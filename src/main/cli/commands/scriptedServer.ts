import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { refuseRepeatedOptions } from '../io'
import { ScenarioError, startScriptedServer, type ServedRequest } from '../../runtime/scripted'

/** Where the command writes and what stops it besides SIGINT/SIGTERM; tests pass their own. */
export interface ScriptedServerCommandIo {
  stdout?: (line: string) => void
  stderr?: (line: string) => void
  /** Stops the server like a signal does. */
  signal?: AbortSignal
}

const USAGE = 'usage: swarmdesk scripted-server --scenario FILE [--port N] [--quiet]'

/**
 * One line of the per-request log, e.g. `POST /v1/messages 200 12 ms alice: script alice, turn 2`:
 * method, path, status (`closed` when the connection ended unanswered), milliseconds, and for a
 * Messages request who asked and which scenario turn answered it.
 */
export function servedLine(served: ServedRequest): string {
  const r = served.recorded
  const who = r ? ` ${r.agentName ?? r.agentId ?? '(no identity)'}` : ''
  const turn = r?.script !== undefined ? `: script ${r.script}, turn ${r.turn}` : ''
  const status = served.status === 0 ? 'closed' : String(served.status)
  return `${served.method} ${served.path} ${status} ${Math.round(served.ms)} ms${who}${turn}`
}

/**
 * `swarmdesk scripted-server --scenario FILE [--port N] [--quiet]` (docs/events.md#event-stream-and-command-line): runs the scripted model alone.
 * Prints exactly one line on stdout, `SCRIPTED_MODEL_URL http://127.0.0.1:PORT`, once listening
 * (`--port 0`, the default, picks a free port), and a line per request answered on stderr
 * ({@link servedLine}; none with `--quiet`); serves until SIGINT or SIGTERM, then closes every connection.
 * @returns 0 after a clean stop; 2 for bad usage or a scenario that does not load (the message on
 *   stderr names the option, or the file, path and reason); 1 when the port cannot be bound.
 */
export async function scriptedServerCommand(argv: string[], io: ScriptedServerCommandIo = {}): Promise<number> {
  const out = io.stdout ?? ((line: string) => process.stdout.write(`${line}\n`))
  const err = io.stderr ?? ((line: string) => process.stderr.write(`${line}\n`))

  let values: { scenario?: string; port?: string; quiet?: boolean }
  try {
    const options = { scenario: { type: 'string' }, port: { type: 'string' }, quiet: { type: 'boolean' } } as const
    values = parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values
    refuseRepeatedOptions(argv, options)
  } catch (error) {
    err(`swarmdesk scripted-server: ${(error as Error).message}\n${USAGE}`)
    return 2
  }
  if (!values.scenario) {
    err(`swarmdesk scripted-server: --scenario FILE is required\n${USAGE}`)
    return 2
  }
  const port = values.port === undefined ? 0 : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535 || values.port?.trim() === '') {
    err(`swarmdesk scripted-server: --port must be an integer from 0 to 65535, got '${values.port}'`)
    return 2
  }

  let server
  try {
    server = await startScriptedServer({
      scenario: resolve(process.cwd(), values.scenario),
      port,
      ...(values.quiet ? {} : { onRequest: (served: ServedRequest) => err(servedLine(served)) })
    })
  } catch (error) {
    if (error instanceof ScenarioError) {
      err(`swarmdesk scripted-server: bad scenario: ${error.message}`)
      return 2
    }
    err(`swarmdesk scripted-server: cannot listen on 127.0.0.1:${port}: ${(error as Error).message}`)
    return 1
  }

  out(`SCRIPTED_MODEL_URL ${server.url}`)
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      io.signal?.removeEventListener('abort', stop)
      resolve()
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
    if (io.signal?.aborted) stop()
    else io.signal?.addEventListener('abort', stop)
  })
  await server.close()
  return 0
}
