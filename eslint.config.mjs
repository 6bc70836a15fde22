// Lint and the layer rule. `npm run lint` runs this with Prettier's check and the unused-export
// check; .ci/run runs `npm run lint`.
//
// The layers (docs/architecture.md, "Layers"): each folder may import only the lib folders listed
// for it. The table below is the rule; the docs' table says the same.
import js from '@eslint/js';
import jest from 'eslint-plugin-jest';
import tseslint from 'typescript-eslint';

/** lib folders (and lib's top-level modules) that exist, so each layer's forbidden list is derived. */
const LIB = ['http', 'actions', 'access', 'events', 'state', 'store', 'models', 'validation', 'render', 'narrow', 'content', 'emoji'];
const LEAVES = ['models', 'validation']; // plus lib/errors, lib/config, lib/clock: importable from anywhere in lib

/** What each layer may import, besides the leaves. */
const LAYERS = {
  functions: ['http', 'actions', 'access', 'state', 'events'],
  'lib/http': ['store'],
  'lib/actions': ['store', 'access', 'events'],
  'lib/access': ['store'],
  'lib/state': ['store', 'access'],
  'lib/events': ['store'],
  'lib/store': [],
  'lib/models': [],
};

const forbiddenFor = (layer) => {
  const allowed = new Set([...LAYERS[layer], ...LEAVES]);
  const own = layer.startsWith('lib/') ? layer.slice(4) : null;
  return LIB.filter((name) => name !== own && !allowed.has(name));
};

const layerRules = Object.keys(LAYERS).map((layer) => ({
  files: [`${layer}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: forbiddenFor(layer).map((name) => ({
          regex: `(^|/)lib/${name}(/|$)|^\\.\\./${name}(/|$)`,
          message: `${layer} may not import lib/${name} (docs/architecture.md, "Layers").`,
        })),
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['node_modules/**', '.serverless/**', '.build/**', '.esbuild/**', 'coverage/**', 'dist/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      eqeqeq: ['error', 'always'],
    },
  },
  ...layerRules,
  {
    files: ['test/**/*.ts'],
    plugins: { jest },
    rules: {
      'jest/no-focused-tests': 'error',
      'jest/no-disabled-tests': 'error',
      'jest/no-identical-title': 'error',
    },
  },
);
