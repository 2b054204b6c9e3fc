/** Bytes of every benchmark line, its "\n" included (see line.mjs). */
export const LINE_BYTES: number
/** Line `seq` of producer `agent`, exactly {@link LINE_BYTES} bytes (see line.mjs). */
export function benchLine(agent: number, seq: number): string
