export * from './disposable'
export * from './errors'
