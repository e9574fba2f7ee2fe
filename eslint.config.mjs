// ESLint for the TypeScript and the node scripts (`npm run lint:ts`); the engine has ruff.
// Type-aware: typescript-eslint's recommendedTypeChecked reads the types through tsconfig.json
// (the .mjs files, in no tsconfig, get a default project). React's hook rules cover the renderer.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const NODE_SCRIPTS = ['bench/*.mjs', 'scripts/*.mjs', 'eslint.config.mjs'];

export default defineConfig(
  globalIgnores(['dist/', 'node_modules/', 'engine/', 'test-results/', 'release/', 'contract/contract.gen.ts']),
  {
    files: ['contract/**/*.ts', 'src/**/*.{ts,tsx}', 'electron/**/*.ts', 'e2e/**/*.ts', 'vite.config.mts', 'playwright.config.ts', ...NODE_SCRIPTS],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: NODE_SCRIPTS },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_`-prefixed names mark a parameter or binding kept for its position.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The shell and the renderer share the transport contract from contract/; neither reaches into
    // the other's folder, and contract/ imports neither.
    files: ['electron/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/src/**'], message: 'electron/ imports the shared contract/ only, never the renderer (src/)' }] }] },
  },
  {
    files: ['contract/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/src/**', '**/electron/**'], message: 'contract/ stands alone: both faces import it' }] }] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['electron/**/*.ts', 'e2e/**/*.ts', 'vite.config.mts', 'playwright.config.ts', ...NODE_SCRIPTS],
    languageOptions: { globals: globals.node },
  },
  {
    // Plain JavaScript has nowhere to write a type, so JSON.parse, page.evaluate and the like give
    // `any` on every line; the rules about `any` stay on where types can be written, the rest apply.
    files: NODE_SCRIPTS,
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The benchmark's page functions (instrument, designerInteractive, ...) run in Chromium.
    files: ['bench/ui.mjs', 'bench/ui-study.mjs'],
    languageOptions: { globals: globals.browser },
  },
);
