// Lint rules: Next's recommended set (React, hooks, core web vitals), typescript-eslint's, and the layer rules
// of docs/architecture.md, so the layout keeps saying what depends on what.
import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

/** `lib/` is the domain: no HTTP pages, no React components. */
const LIB_IMPORTS = [
  { group: ['@/app/*', '**/app/*'], message: 'lib/ must not import app/: move the shared rule into lib/.' },
  { group: ['@/components/*', '**/components/*'], message: 'lib/ must not import components/.' },
];

/** `components/` is presentational: data comes in as props, never from the database. */
const COMPONENT_IMPORTS = [
  {
    group: ['@/lib/db', '**/lib/db', '@/lib/generated/*', '**/lib/generated/*'],
    message: 'components/ must not reach the database: take the data as props.',
  },
  { group: ['@/app/*', '**/app/*'], message: 'components/ must not import app/.' },
];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    '.next/**',
    'node_modules/**',
    'lib/generated/**',
    'next-env.d.ts',
    'test-results/**',
    'playwright-report/**',
    'bench/**',
    '.data/**',
    '.test-data/**',
    '.scratch/**',
    'tests/typed-client/generated/**',
    'sdk/dist/**',
    'sdk/node_modules/**',
  ]),
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    rules: {
      // A leading underscore marks a value taken apart only to leave it out.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  { files: ['**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  { files: ['lib/**'], rules: { 'no-restricted-imports': ['error', { patterns: LIB_IMPORTS }] } },
  { files: ['components/**'], rules: { 'no-restricted-imports': ['error', { patterns: COMPONENT_IMPORTS }] } },
]);
