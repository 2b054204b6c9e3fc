export * from './reader'
export * from './schema'
export * from './writer'
