/**
 * The `Headers` and `FormData` every module of the worker teammate bundle sees instead of the
 * global ones: scripts/build-node.mjs injects this module's exports for those free names
 * (docs/teams.md#worker-teammate-start-up). Node's global `Headers` and `FormData` are lazy
 * getters that load its whole fetch implementation (undici: ~2 MB of heap and 40–90 ms of CPU in
 * a fresh worker), and the model SDK builds a `Headers` for every request and asks
 * `body instanceof FormData` of every body. A worker's model requests are made by the main thread
 * (httpClient.ts), so nothing on its start path needs undici; WebFetch still uses the real
 * `fetch`, loaded on its first use.
 *
 * Both are maintained implementations of the standard classes: `headers-polyfill` (mswjs) and
 * `formdata-node`.
 */
export { Headers } from 'headers-polyfill'
export { FormData } from 'formdata-node'
