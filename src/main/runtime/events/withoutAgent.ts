/** An event type without its agent fields (distributes over unions). */
export type WithoutAgent<E> = E extends unknown ? Omit<E, 'agentId' | 'agentName'> : never
