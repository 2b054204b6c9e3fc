import { z } from 'zod'

/**
 * The state of a team store's connection to its engine (docs/nats.md#connection-state):
 * - `connected`: the store reaches its engine (the files always do);
 * - `disconnected`: the connection to the NATS server just dropped;
 * - `reconnecting`: trying the server URLs again (every 250 ms, for ever);
 * - `closed`: closed for good (the store was closed).
 * Anything but `connected` means the team's mailbox, task list, config and liveness cannot be
 * reached from here until it is back.
 */
export const TeamConnectionStateSchema = z.enum(['connected', 'disconnected', 'reconnecting', 'closed'])
export type TeamConnectionState = z.infer<typeof TeamConnectionStateSchema>

/** A server URL as the UI may see it: `nats://host:port`, never with a user, password or token in it. */
const ServerUrlSchema = z
  .string()
  .min(1)
  .refine((s) => !/^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(s), 'a server URL shown to the UI carries no credentials')

/**
 * Where the workspace's team lives, as the UI shows it (docs/ui.md#team-dashboard): the data
 * directory's files, or a NATS JetStream server (its URLs, never a credential) and the state of the
 * connection to it.
 */
export const TeamTransportViewSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('files') }),
  z.object({ kind: z.literal('nats'), servers: z.array(ServerUrlSchema).min(1), state: TeamConnectionStateSchema })
])
export type TeamTransportView = z.infer<typeof TeamTransportViewSchema>
