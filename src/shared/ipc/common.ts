import { z } from 'zod'

/** A request that carries nothing. */
export const Empty = z.object({}).strict()
/** The answer of a request that has nothing to say but that it was done. */
export const Ok = z.object({ ok: z.literal(true) })
