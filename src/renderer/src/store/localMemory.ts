import type { z } from 'zod'

/**
 * The part of the Web Storage API the renderer's memories use: `localStorage` in the browser and
 * in the Electron window alike (both keep it per origin, across reloads and restarts); tests pass
 * a Map-backed one.
 */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>

/** The page's localStorage, or undefined where there is none (a test in Node, storage disabled). */
export function pageStorage(): KeyValueStorage | undefined {
  try {
    return globalThis.localStorage ?? undefined
  } catch {
    // reading localStorage throws where the page may not use it
    return undefined
  }
}

/**
 * A stored JSON value validated by `schema`; undefined when absent, unparseable or not of the
 * schema's shape (an entry from another version, or edited by hand, is ignored, never trusted).
 */
export function readStored<T>(storage: KeyValueStorage | undefined, key: string, schema: z.ZodType<T>): T | undefined {
  try {
    const raw = storage?.getItem(key)
    if (!raw) return undefined
    const parsed = schema.safeParse(JSON.parse(raw))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/** Stores `value` as JSON; a full or disabled storage means it is simply not remembered. */
export function writeStored(storage: KeyValueStorage | undefined, key: string, value: unknown): void {
  try {
    storage?.setItem(key, JSON.stringify(value))
  } catch {
    // quota exceeded or storage disabled
  }
}
