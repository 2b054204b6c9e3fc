export * from './orphans'
export * from './recorder'
export * from './startup'
export * from './stateFile'
