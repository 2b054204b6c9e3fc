export * from './disposable'
export * from './errors'
export * from './packageRoot'
