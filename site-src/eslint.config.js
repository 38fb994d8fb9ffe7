// ESLint (`npm run lint`): typescript-eslint's recommended rules, and the import boundaries that keep
// the front end layered: lib/ below components/ below features/ below islands/ and screens/.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** An import of any module under one of `dirs`, written relative or not (`../islands/x`, `../../lib/y`). */
const under = (...dirs) => dirs.map((dir) => `**/${dir}/**`);

/** `no-restricted-imports` for files that must not reach into `dirs`, saying which layer forbids it and why. */
const boundary = (files, dirs, why) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: [{ group: under(...dirs), message: why }] }],
  },
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  // `{ id: _, ...rest }` drops a field on purpose.
  { rules: { '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, varsIgnorePattern: '^_', argsIgnorePattern: '^_' }] } },
  // The build and test scripts and the browser suites run in Node and drive a page: both sets of globals.
  { files: ['**/*.{js,mjs,cjs}'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
  boundary(
    ['src/lib/**'],
    ['islands', 'screens', 'features', 'components'],
    'lib/ is the lowest layer (the API client, shared state and rules): it never imports UI, a feature or an island.',
  ),
  boundary(
    ['src/components/**'],
    ['islands', 'screens', 'features'],
    'components/ holds shared UI only: it builds on lib/ and never imports a feature, a screen or an island.',
  ),
  boundary(
    ['src/features/**'],
    ['islands', 'screens'],
    'A feature is hydrated by an island or a screen; it never imports one.',
  ),
);
