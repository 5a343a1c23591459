// Layer rules: who may import electron, node: modules and DOM APIs (see the architecture map in README.md).
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto', 'http', 'https', 'net', 'url', 'worker_threads', 'vm', 'events', 'stream', 'util']
const domGlobals = ['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'location', 'HTMLElement', 'EventSource'].map((name) => ({
  name,
  message: 'src/shared is pure: no DOM APIs (it also runs in main and the CLI).'
}))

const restrict = (patterns, message, allowTypeImports = false) => ({
  '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group: patterns, message, allowTypeImports }] }]
})

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.tmp/**', 'resources/**', 'native/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-empty': ['error', { allowEmptyCatch: true }]
    }
  },
  {
    files: ['src/shared/**/*.ts', 'src/shared/**/*.tsx'],
    rules: {
      ...restrict([...nodeBuiltins, 'electron', '**/main/**', '**/renderer/**', '**/preload/**'], 'src/shared is pure TypeScript: no node:, electron, or other layers.'),
      'no-restricted-globals': ['error', ...domGlobals, { name: 'process', message: 'src/shared is pure: no process.' }]
    }
  },
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/shell/**'],
    rules: restrict(['electron', '**/renderer/**', '**/preload/**'], 'Only src/main/shell may import electron; main never imports the renderer.', true)
  },
  {
    files: ['src/main/shell/**/*.ts'],
    rules: restrict(['**/renderer/**', '**/preload/**'], 'The shell does not import the renderer or preload.')
  },
  {
    files: ['src/renderer/**/*.ts', 'src/renderer/**/*.tsx'],
    rules: restrict([...nodeBuiltins, 'electron', '**/main/**', '**/preload/**'], 'The renderer talks to main only through the contract client.')
  },
  {
    files: ['src/preload/**/*.ts'],
    rules: restrict([...nodeBuiltins.filter((n) => n !== 'events'), '**/main/**', '**/renderer/**'], 'The preload only bridges the contract.')
  },
  {
    files: ['scripts/**/*.mjs', 'bin/**/*.mjs', '*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } }
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.mjs'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' }
  }
)
