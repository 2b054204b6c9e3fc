import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { getProcessor } from 'sh-syntax'

/**
 * The shell grammar gate of Bash decisions (docs/permissions.md#permissions): sh-syntax, mvdan/sh
 * compiled to WebAssembly. sh-syntax's own `parse` compiles its 0.7 MB module again on every call
 * (2.5–13 ms a command here, and the first call of a process 40–130 ms); this one compiles it
 * once per thread and gives each parse a fresh instance of the compiled module, so a parse runs
 * exactly as sh-syntax's does (a new Go runtime per call) without the compile.
 */

let compiled: Promise<WebAssembly.Module> | undefined

/** The compiled module, compiled on the first call; a failed compile is tried again by the next call. */
function grammarModule(): Promise<WebAssembly.Module> {
  compiled ??= readFile(createRequire(import.meta.url).resolve('sh-syntax/main.wasm'))
    .then((bytes) => WebAssembly.compile(bytes))
    .catch((error: unknown) => {
      compiled = undefined
      throw error
    })
  return compiled
}

const processor = getProcessor(async (imports) => WebAssembly.instantiate(await grammarModule(), imports))

/**
 * Parses `command` as Bash; resolves when it parses.
 * @throws sh-syntax's ParseError (or SyntaxError) when it does not; an Error when the grammar's
 * WebAssembly cannot be read or compiled.
 */
export async function parseShell(command: string): Promise<void> {
  await processor(command)
}

/**
 * Starts compiling the grammar now, off the main thread (V8 compiles WebAssembly in the
 * background), so the first Bash decision of a session does not wait for it. A process whose
 * agents may never run Bash (an idle worker teammate) does not call this: the module is compiled
 * when first needed. Never throws; a failure surfaces at the first parse.
 */
export function prepareShellGrammar(): void {
  grammarModule().catch(() => {})
}
