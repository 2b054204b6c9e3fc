import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
// loads sh-syntax's Go runtime shim (the global `Go`) and gives its error type
import { LangVariant, ParseError } from 'sh-syntax'

/**
 * The shell grammar gate of Bash decisions (docs/permissions.md#permissions): sh-syntax 0.7.0,
 * mvdan/sh compiled to WebAssembly (TinyGo). sh-syntax's own `parse` compiles its 0.7 MB module
 * again on every call (2.5–13 ms a command here, the first call of a process 40–130 ms). Here the
 * module is compiled once per thread, and every parse still runs in a fresh instance, as
 * sh-syntax's does (an instance must not be reused: TinyGo's collector corrupts its heap once
 * `main` has returned). Where the session asked for it ({@link prepareShellGrammar}), the next
 * instance is made ready right after each parse, so a decision waits only for the parse itself.
 *
 * The call into the instance follows sh-syntax 0.7.0's `processor` (lib/processor.js), pinned
 * in package.json; shellGrammar.test.ts checks it against sh-syntax's own `parse`.
 */

/** The instance's exports this gate uses (sh-syntax 0.7.0's ABI). */
interface GrammarExports {
  memory: WebAssembly.Memory
  wasmAlloc(bytes: number): number
  wasmFree(pointer: number): void
  process(...args: Array<number | boolean>): number
}

/** sh-syntax's Go runtime shim, installed as a global by importing sh-syntax. */
interface GoRuntime {
  importObject: WebAssembly.Imports
  run(instance: WebAssembly.Instance): Promise<unknown>
}

let compiled: Promise<WebAssembly.Module> | undefined
let next: Promise<GrammarExports> | undefined
let eager = false

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

/** A fresh instance with its Go runtime started, as sh-syntax's processor makes one per call. */
async function instantiate(): Promise<GrammarExports> {
  const Go = (globalThis as unknown as { Go: new () => GoRuntime }).Go
  const go = new Go()
  const instance = await WebAssembly.instantiate(await grammarModule(), go.importObject)
  void go.run(instance)
  return instance.exports as unknown as GrammarExports
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** Copies `bytes` into the instance's memory; returns the pointer. */
function put(exports: GrammarExports, bytes: Uint8Array): number {
  const pointer = exports.wasmAlloc(bytes.byteLength)
  new Uint8Array(exports.memory.buffer).set(bytes, pointer)
  return pointer
}

/**
 * Parses `command` as Bash; resolves when it parses.
 * @throws sh-syntax's ParseError (or SyntaxError) when it does not, as sh-syntax's `parse` throws;
 * an Error when the grammar's WebAssembly cannot be read or compiled.
 */
export async function parseShell(command: string): Promise<void> {
  const ready = next ?? instantiate()
  next = undefined
  let exports: GrammarExports
  try {
    exports = await ready
  } finally {
    if (eager) prepareNext()
  }
  // sh-syntax 0.7.0's processor with its defaults: no file name, parse only, comments kept,
  // Bash, no stopAt, no error recovery; the printer's options are unused when not printing
  const file = encoder.encode('')
  const text = encoder.encode(command)
  const stopAt = encoder.encode('')
  const filePointer = put(exports, file)
  const textPointer = put(exports, text)
  const stopAtPointer = put(exports, stopAt)
  const resultPointer = exports.process(
    filePointer, file.byteLength, file.byteLength,
    textPointer, text.byteLength, text.byteLength,
    false, true, LangVariant.LangBash,
    stopAtPointer, stopAt.byteLength, stopAt.byteLength,
    0, false, 2, true, true, true, false, false, false, false
  ) // prettier-ignore
  exports.wasmFree(filePointer)
  exports.wasmFree(textPointer)
  exports.wasmFree(stopAtPointer)
  const result = new Uint8Array(exports.memory.buffer).subarray(resultPointer)
  const json = decoder.decode(result.subarray(0, result.indexOf(0)))
  if (!json.startsWith('{"') || !json.endsWith('}')) throw new ParseError({ Incomplete: true, Text: json })
  const { parseError, message } = JSON.parse(json) as {
    parseError?: ConstructorParameters<typeof ParseError>[0] | null
    message?: string
  }
  if (parseError || message) throw parseError == null ? new SyntaxError(message) : new ParseError(parseError)
}

/**
 * Starts compiling the grammar now, off the main thread (V8 compiles WebAssembly in the
 * background), and keeps an instance ready for the next parse from then on, so a Bash decision of
 * this thread waits for neither. The leader's session calls it as it opens; a process whose agents
 * may never run Bash (an idle worker teammate) does not, and compiles the module when first needed.
 * Never throws; a failure surfaces at the first parse.
 */
export function prepareShellGrammar(): void {
  eager = true
  if (!next) prepareNext()
}

/** Starts the instance the next parse takes; a failure is dropped here (the parse that needs an instance makes its own). */
function prepareNext(): void {
  const ready = instantiate()
  next = ready
  ready.catch(() => {
    if (next === ready) next = undefined
  })
}
