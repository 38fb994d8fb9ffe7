// ESLint (`npm run lint`): typescript-eslint's recommended rules, and the import boundaries that keep
// the front end layered: lib/ below components/ below features/ below islands/ (the entry points).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** An import of any module under one of `dirs`, written relative or not (`../islands/x`, `../../lib/y`). */
const under = (...dirs) => dirs.map((dir) => `**/${dir}/**`);

/**
 * Files that must not reach into `dirs`, by a static import (`no-restricted-imports`) or a lazy one
 * (`import('…')`, which that rule does not see), with the layer's rule as the message. Tests are
 * exempt: a test may drive an island and the features under it together.
 */
const boundary = (files, dirs, why) => ({
  files,
  ignores: ['**/*.test.{ts,tsx}'],
  rules: {
    'no-restricted-imports': ['error', { patterns: [{ group: under(...dirs), message: why }] }],
    'no-restricted-syntax': [
      'error',
      { selector: `ImportExpression[source.value=/\\/(${dirs.join('|')})\\//]`, message: why },
    ],
  },
});

/**
 * The files that call `fetch` themselves, each for a request that is not an API call: the API
 * client; the card tokeniser (card details go to the payment provider's URL, never to /api, and
 * without the shop's cookies); the colour change (a colourway's static product page, as HTML); and
 * a content page's blocks (a static page's HTML).
 */
const FETCH_CALLERS = [
  'src/lib/api.ts',
  'src/features/checkout/tokenize.ts',
  'src/features/product/product-options-live.ts',
  'src/lib/content-page.ts',
];
const VIA_API = 'An API call goes through lib/api.ts, in its own file under the feature\'s `*-api/` folder.';

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
    ['islands', 'features', 'components'],
    'lib/ is the lowest layer (the API client, shared state and rules): it never imports UI, a feature or an island.',
  ),
  boundary(
    ['src/components/**'],
    ['islands', 'features'],
    'components/ holds shared UI only: it builds on lib/ and never imports a feature or an island.',
  ),
  boundary(['src/features/**'], ['islands'], 'A feature is hydrated by an island; it never imports one.'),
  // One file per API call: only a feature's `*-api/` files call the client, and nothing else fetches
  // (a rule of its own name, so the layer boundaries above keep theirs). Tests stub fetch.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'src/testing/**', 'src/features/*/*-api/**', 'src/lib/api.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/lib/api', './api'], importNames: ['api'], message: VIA_API }] },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'src/testing/**', ...FETCH_CALLERS],
    rules: {
      'no-restricted-globals': ['error', { name: 'fetch', message: VIA_API }],
      'no-restricted-properties': [
        'error',
        ...['window', 'globalThis', 'self'].map((object) => ({ object, property: 'fetch', message: VIA_API })),
      ],
    },
  },
);
