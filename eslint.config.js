// Lint: promises that nobody awaits (typescript-eslint's type-aware no-floating-promises) and Node built-ins
// imported without the `node:` prefix (eslint-plugin-n). tsc already checks types; this checks what it cannot.
import tseslint from 'typescript-eslint';
import n from 'eslint-plugin-n';
import { functionLengthRule, layerRules, restrictedSyntaxRules } from './eslint.layers.js';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/results/**', 'bench/pages/**'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'examples/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin, n },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', {
        ignoreVoid: true,
        // node:test runs top-level test() and describe() itself and reports their failures.
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }],
      }],
      'n/prefer-node-protocol': 'error',
    },
  },
  // The layering of ARCHITECTURE.md ("The way data flows"), checked per folder rather than kept by memory: each
  // layer imports only the layers below it. test/unit/lint-layers.test.ts shows each rule failing on a violation.
  ...layerRules(),
  // No dynamic import of a platform's folder outside src/drivers; only the acting pipeline takes the session's acting
  // device back (src/session/acting-device.ts): everything else holds the read-only device.
  ...restrictedSyntaxRules(),
  // Short functions where the flows, passes and rules live (eslint.layers.js says which folders).
  ...functionLengthRule(),
  {
    files: ['scripts/**/*.mjs', 'eslint.config.js', 'eslint.layers.js'],
    plugins: { n },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: { 'n/prefer-node-protocol': 'error' },
  },
);
