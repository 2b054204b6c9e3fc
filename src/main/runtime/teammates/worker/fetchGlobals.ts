/**
 * The `Headers` and `FormData` every module of the worker teammate bundle sees instead of the
 * global ones (scripts/build-node.mjs injects this module's exports for those free names).
 *
 * `Headers` (docs/teams.md#worker-teammate-start-up): Node's global one is a lazy getter that loads
 * its whole fetch implementation (undici: ~2 MB of heap and 40–90 ms of CPU in a fresh worker),
 * and the model SDK builds a `Headers` for every request. A worker's model requests go through
 * the main thread ({@link import('./httpClient').createHttpPortClient}), so nothing on its start
 * path needs undici; WebFetch still uses the real `fetch`, loaded on its first use.
 *
 * The Fetch standard's Headers (https://fetch.spec.whatwg.org/#headers-class) for what the SDK
 * and Swarmdesk use: names are case-insensitive and kept lower-case, `append` joins values with
 * ", ", iteration is sorted by name, `set-cookie` values stay apart (`getSetCookie`). No guard
 * (immutable headers) and no validation of names or values beyond what `String()` gives.
 */
export class Headers {
  private readonly map = new Map<string, string>()
  private readonly cookies: string[] = []

  /** @param init another Headers (or anything iterable of [name, value]), pairs, or a record. */
  constructor(init?: Iterable<readonly [string, string]> | Record<string, string> | null) {
    if (init === undefined || init === null) return
    if (typeof (init as Iterable<unknown>)[Symbol.iterator] === 'function') {
      for (const pair of init as Iterable<readonly [string, string]>) {
        if (pair.length !== 2)
          throw new TypeError('Headers: each header must be a [name, value] pair of exactly two items.')
        this.append(pair[0], pair[1])
      }
    } else for (const [name, value] of Object.entries(init)) this.append(name, value)
  }

  append(name: string, value: string): void {
    const key = String(name).toLowerCase()
    const v = String(value).trim()
    if (key === 'set-cookie') this.cookies.push(v)
    const old = this.map.get(key)
    this.map.set(key, old === undefined ? v : `${old}, ${v}`)
  }

  set(name: string, value: string): void {
    const key = String(name).toLowerCase()
    const v = String(value).trim()
    if (key === 'set-cookie') this.cookies.splice(0, this.cookies.length, v)
    this.map.set(key, v)
  }

  get(name: string): string | null {
    return this.map.get(String(name).toLowerCase()) ?? null
  }

  has(name: string): boolean {
    return this.map.has(String(name).toLowerCase())
  }

  delete(name: string): void {
    const key = String(name).toLowerCase()
    if (key === 'set-cookie') this.cookies.length = 0
    this.map.delete(key)
  }

  /** Every `set-cookie` value, apart. */
  getSetCookie(): string[] {
    return [...this.cookies]
  }

  forEach(callback: (value: string, name: string, headers: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this)
  }

  /** [name, value] pairs sorted by name; `set-cookie` once per value, as the standard has it. */
  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.map.keys()].sort()) {
      if (name === 'set-cookie') for (const cookie of this.cookies) yield [name, cookie]
      else yield [name, this.map.get(name)!]
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries()
  }

  get [Symbol.toStringTag](): string {
    return 'Headers'
  }
}

/**
 * The bundle's `FormData`: a class no value is an instance of. The model SDK asks
 * `body instanceof FormData` of every request body, and Node's global `FormData`, like `Headers`,
 * loads its whole fetch; a worker teammate's requests are JSON (the SDK's multipart uploads, the
 * Files API, are not used by Swarmdesk), so no body is one.
 * @throws TypeError when constructed: nothing in a worker teammate builds a multipart body.
 */
export class FormData {
  constructor() {
    throw new TypeError(
      'A worker teammate sends no multipart bodies: FormData is not available in its bundle (scripts/build-node.mjs).'
    )
  }
}
