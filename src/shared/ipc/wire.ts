import { z } from 'zod'

/** An error answered over a transport: `name` and `message` survive serialisation. */
export const IpcErrorSchema = z.object({ name: z.string(), message: z.string() })
export type IpcError = z.infer<typeof IpcErrorSchema>

/**
 * Wire frames of the WebSocket bridge (web host ⇄ browser). The host sends the pushes made in one
 * of its macrotasks as one frame: `push` for a single one, `pushes` for several, in the order they
 * were made (src/main/host/bridge.ts).
 */
export const BridgeFrameSchema = z.union([
  z.object({ kind: z.literal('request'), id: z.number().int(), channel: z.string(), payload: z.unknown() }),
  z.object({ kind: z.literal('response'), id: z.number().int(), ok: z.literal(true), result: z.unknown() }),
  z.object({ kind: z.literal('response'), id: z.number().int(), ok: z.literal(false), error: IpcErrorSchema }),
  z.object({ kind: z.literal('push'), channel: z.string(), payload: z.unknown() }),
  z.object({
    kind: z.literal('pushes'),
    pushes: z.array(z.object({ channel: z.string(), payload: z.unknown() })).min(1)
  })
])
export type BridgeFrame = z.infer<typeof BridgeFrameSchema>
