import { useSyncExternalStore } from 'react'

/**
 * One shared ticking clock for live durations (pane headers' elapsed time). The interval runs only
 * while some component listens, so an idle page with no running agent header costs nothing, and
 * every header ticks on the same beat instead of each owning a timer.
 */
const TICK_MS = 1000
const listeners = new Set<() => void>()
let now = Date.now()
let timer: ReturnType<typeof setInterval> | undefined

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  if (!timer) {
    now = Date.now()
    timer = setInterval(() => {
      now = Date.now()
      for (const l of listeners) l()
    }, TICK_MS)
  }
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0 && timer) {
      clearInterval(timer)
      timer = undefined
    }
  }
}

const read = (): number => now
const readNever = (): number => 0
const subscribeNever = (): (() => void) => () => undefined

/**
 * The current time in ms since the epoch, re-rendering the caller every second while `live`;
 * when not live it returns 0 and holds no timer (a finished agent's elapsed time no longer moves).
 */
export function useNow(live: boolean): number {
  return useSyncExternalStore(live ? subscribe : subscribeNever, live ? read : readNever)
}
