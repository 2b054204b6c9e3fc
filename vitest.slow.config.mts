import { defineConfig, mergeConfig } from 'vitest/config'
import base from './vitest.config.mts'

/** The slow tests (`*.slow.test.ts`), left out of `npm test`: `npm run test:slow`, also run by `.ci/run`. */
export default mergeConfig(
  base,
  defineConfig({ test: { include: ['src/**/*.slow.test.ts'], exclude: ['**/node_modules/**'], testTimeout: 120_000 } })
)
