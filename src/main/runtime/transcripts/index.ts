export * from './paths'
export * from './reader'
export * from './schema'
export * from './writer'
