// Layer rules: who may import electron, node: modules and DOM APIs (see the architecture map in README.md).
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import mainLayers from './scripts/eslint/main-layers.mjs'

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto', 'http', 'https', 'net', 'url', 'worker_threads', 'vm', 'events', 'stream', 'util']
const domGlobals = ['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'location', 'HTMLElement', 'EventSource'].map((name) => ({
  name,
  message: 'src/shared is pure: no DOM APIs (it also runs in main and the CLI).'
}))

// The layers of src/main, lowest first: a room (a folder of src/main, or a file at its top) imports only rooms of its
// own layer or of a layer below. The store holds the SQL and knows nothing else of main; the base is what every room
// may use; the domain rooms do the work; the front doors (the contract's handlers, the command line, the HTTP bridge,
// the Electron shell) call them. A new folder is a domain room until it is named here.
export const MAIN_LAYERS = [
  { name: 'store', rooms: ['store'] },
  { name: 'base', rooms: ['files', 'paths.ts', 'events.ts', 'session.ts'] },
  {
    name: 'domain',
    rooms: ['adjudication', 'annotation', 'report', 'calibrate', 'checks', 'demo', 'export', 'import', 'packets', 'probes', 'providers', 'runner', 'secrets', 'splits']
  },
  { name: 'front doors', rooms: ['api', 'cli', 'web', 'shell'] }
]

// SQL lives in src/main/store: only its modules prepare statements. A file that must hold a query of its own for a
// while is listed here, by name, so the exception is visible; today there is none, and none should join.
/** @type {string[]} */
export const PREPARE_OUTSIDE_STORE = []

const SQL_IN_STORE = 'SQL lives in src/main/store: call a store module here, or add the query to one (one module per table).'
const MAIN_IMPORTS = 'Only src/main/shell may import electron; main never imports the renderer.'

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
    rules: restrict(['electron', '**/renderer/**', '**/preload/**'], MAIN_IMPORTS, true)
  },
  {
    files: ['src/main/**/*.ts'],
    plugins: { assay: { rules: { 'main-layers': mainLayers } } },
    rules: { 'assay/main-layers': ['error', { root: 'src/main', layers: MAIN_LAYERS, rest: 'domain' }] }
  },
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/store/**', ...PREPARE_OUTSIDE_STORE],
    rules: {
      // Every way to hand SQL to a connection: prepare and pragma in any spelling (called, bound, computed), and exec
      // with SQL text (a regular expression's exec takes no literal SQL and is left alone).
      'no-restricted-syntax': [
        'error',
        ...[
          "MemberExpression[property.name=/^(prepare|pragma)$/]",
          "MemberExpression[computed=true][property.value=/^(prepare|pragma|exec)$/]",
          "CallExpression[callee.property.name='exec'][arguments.0.type=/^(Literal|TemplateLiteral)$/]:not([callee.object.regex])"
        ].map((selector) => ({ selector, message: SQL_IN_STORE }))
      ]
    }
  },
  {
    // Only the store opens a database: a connection opened elsewhere would be SQL outside it (types may be imported).
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/store/**', 'src/main/shell/**', ...PREPARE_OUTSIDE_STORE],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['electron', '**/renderer/**', '**/preload/**'], message: MAIN_IMPORTS, allowTypeImports: true },
            { group: ['better-sqlite3'], message: SQL_IN_STORE, allowTypeImports: true }
          ]
        }
      ]
    }
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
