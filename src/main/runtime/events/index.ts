export * from './bus'
export * from './text'
