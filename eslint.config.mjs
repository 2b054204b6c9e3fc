// ESLint for the whole tree (docs/design.md#design-rules): the recommended rules of ESLint and
// typescript-eslint, and React's rules of hooks for the renderer. The layer rules are
// dependency-cruiser's (.dependency-cruiser.cjs, `npm run lint:deps`); formatting is Prettier's
// (.prettierrc.json). `npm run lint` runs this and the Prettier check.
import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import { defineConfig } from 'eslint/config'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default defineConfig(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'e2e/test-results/**', 'e2e/.report/**', '**/*.cjs'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // `_name` marks a binding kept on purpose (a callback's unused parameter, a rest sibling)
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }
      ],
      // terminals speak in control characters: matching ESC, BEL and C0 codes is the point of
      // many of Swarmdesk's regular expressions (ANSI stripping, pane text, Bash input checks)
      'no-control-regex': 'off',
      // a `let` a closure reads before its one assignment (a server's port, a spawned child) stays a `let`
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }]
    }
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' }
  },
  // Node scripts: the build, the benchmarks' drivers, the test setup, the CLI launcher
  {
    files: ['scripts/**/*.mjs', 'bench/**/*.mjs', 'bin/**', 'e2e/**/*.mjs'],
    languageOptions: { globals: globals.node }
  },
  // page scripts the UI benchmark injects into Chromium
  { files: ['bench/ui/page/**/*.js'], languageOptions: { globals: globals.browser, sourceType: 'script' } },
  // the demo's sample project is a user's CommonJS Node project, run by `node --test`
  {
    files: ['resources/demo/project/**/*.js'],
    languageOptions: { globals: globals.node, sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' }
  }
)
