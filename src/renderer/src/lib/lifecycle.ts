/** Disposables and the emitter, shared with the runtime: see src/shared/lifecycle.ts. */
export { DisposableStore, Emitter, toDisposable, type Disposable } from '../../../shared/lifecycle'
