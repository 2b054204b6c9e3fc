import type { PushChannel, PushOf } from '../../shared/ipc'

/** One push as the contract types it: its channel names its payload's type (src/shared/ipc). */
export type Push = { [C in PushChannel]: { channel: C; payload: PushOf<C> } }[PushChannel]

/**
 * The pushes a service made, in order, typed by the contract. The typing is sound because the
 * service checks every payload against its channel's schema before it pushes it, outside
 * production (`WorkspaceService.push`). Subscribe with `service.onPush(log.record)`.
 */
export class PushLog {
  readonly all: Push[] = []

  /** The listener to pass to `onPush`. */
  readonly record = (channel: PushChannel, payload: unknown): void => {
    this.all.push({ channel, payload } as Push)
  }

  /** The payloads pushed on `channel`, in order. */
  of<C extends PushChannel>(channel: C): Array<PushOf<C>> {
    return this.all.flatMap((p) => (p.channel === channel ? [p.payload as PushOf<C>] : []))
  }
}
