export * from './reader'
export * from './schema'
export * from './writer'
export * from './sessionList'
