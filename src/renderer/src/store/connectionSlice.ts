import type { StateCreator } from 'zustand/vanilla'
import type { ConnectionStatus, Transport } from '../api/client'
import type { AppState } from './store'

/** The link to the runtime, and the last error a request met (shown in the status bar). */
export interface ConnectionSlice {
  connection: {
    status: ConnectionStatus
    transport: Transport | undefined
    lastError: string | undefined
  }
  setConnection(status: ConnectionStatus, transport?: Transport): void
  /** Records an error for the person to see; `undefined` clears it. */
  setError(message: string | undefined): void
}

/** Creates the connection slice (zustand slices pattern). */
export const createConnectionSlice: StateCreator<AppState, [], [], ConnectionSlice> = (set) => ({
  connection: { status: 'connecting', transport: undefined, lastError: undefined },
  setConnection: (status, transport) =>
    set((s) => ({ connection: { ...s.connection, status, transport: transport ?? s.connection.transport } })),
  setError: (lastError) => set((s) => ({ connection: { ...s.connection, lastError } }))
})
