export * from './bus'
export * from './text'
export * from './withoutAgent'
