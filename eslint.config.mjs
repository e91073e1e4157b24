// The linter keeps to rules that catch real defects: a promise nobody awaits (a probe whose
// failure is lost, a write that races the exit), a promise where a boolean is tested, code and
// names left behind, casts that hide a type, `any` in shipped code, and functions too long to
// read. Style is not its business.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const defects = {
  '@typescript-eslint/no-floating-promises': 'error',
  '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
  '@typescript-eslint/await-thenable': 'error',
  '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
  '@typescript-eslint/no-unnecessary-type-assertion': 'error',
  '@typescript-eslint/no-explicit-any': 'error',
  '@typescript-eslint/only-throw-error': 'error',
  '@typescript-eslint/prefer-promise-reject-errors': 'error',
  'no-fallthrough': 'error',
  'no-unreachable': 'error',
  'no-self-compare': 'error',
  'no-dupe-keys': 'error',
  'no-duplicate-case': 'error',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'examples/**'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { projectService: { allowDefaultProject: ['vitest.config.ts'] }, tsconfigRootDir: import.meta.dirname } },
    rules: defects,
  },
  {
    // shipped code reads in small named parts; a test's describe block is a list, not a function
    files: ['src/**/*.ts', 'checks/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 100 }] },
  },
  {
    files: ['**/*.mjs', 'bin/**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }] },
  },
);
