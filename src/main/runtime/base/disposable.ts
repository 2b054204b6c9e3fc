/** Disposables and the emitter, shared with the renderer: see src/shared/lifecycle.ts. */
export { DisposableStore, Emitter, toDisposable, type Disposable } from '../../../shared/lifecycle'
