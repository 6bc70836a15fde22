// Lint and the layer rule. `npm run lint` runs this with Prettier's check and the unused-export
// check; .ci/run runs `npm run lint`.
//
// The layers (docs/architecture.md, "Layers"): each folder may import only the lib folders listed
// for it. The table below is the rule; the docs' table says the same.
import js from '@eslint/js';
import jest from 'eslint-plugin-jest';
import tseslint from 'typescript-eslint';

/** Every lib folder; a layer's forbidden list is derived from it. */
const LIB = [
  'http',
  'web',
  'actions',
  'access',
  'events',
  'state',
  'store',
  'search',
  'models',
  'validation',
  'render',
  'emoji',
  'integrations',
];
/**
 * Pure folders (no I/O): every layer may import them; they import only each other as their own
 * rows say.
 */
const PURE = ['models', 'validation', 'render', 'emoji', 'integrations'];

/**
 * What each folder may import besides the pure ones (docs/architecture.md's table). Handlers do
 * not import lib/access: a handler calls an action, and the action checks (HANDLER_CHECKS below).
 */
const LAYERS = {
  functions: ['http', 'web', 'actions', 'state', 'events'],
  'lib/http': ['store'],
  'lib/web': ['http', 'store'],
  'lib/actions': ['access', 'events', 'store', 'search'],
  // The register action builds the initial state; no other action takes anything from lib/state.
  'lib/actions/register.ts': ['access', 'state', 'events', 'store', 'search'],
  'lib/state': ['access', 'store'],
  'lib/events': ['store'],
  'lib/access': ['store'],
  'lib/store': [],
  // The search index (PostgreSQL through the RDS Data API): only the database client.
  'lib/search': [],
};
/** What each pure folder may import. */
const PURE_LAYERS = {
  'lib/models': ['validation'],
  'lib/validation': [],
  'lib/render': ['validation', 'models', 'emoji'],
  'lib/emoji': [],
  // The incoming-webhook integrations: payload in, topic and Markdown out.
  'lib/integrations': ['models'],
};

/**
 * lib's top-level modules are leaves that every layer may import: each imports no lib folder, and
 * of the other top-level modules only those its row names (test/lint/layers.test.ts checks that
 * every lib/*.ts has a row, and that no import cycle remains among lib's modules).
 */
export const TOP_LEVEL = {
  'lib/errors.ts': [],
  'lib/config.ts': [],
  'lib/clock.ts': [],
  'lib/concurrency.ts': [],
  'lib/passwords.ts': ['lib/config.ts'],
  'lib/log.ts': [],
};

/**
 * Why a handler may not call a permission check, how a check outside lib/access is named
 * (upstream's require_* decorators), and how an access rule is named, which a handler may not take
 * from lib/actions either (an action does not re-export lib/access: it checks, or it names the
 * read it does with its own verb).
 */
const HANDLER_CHECKS = {
  why: 'a handler calls an action, and the action checks its permissions',
  names: '^require[A-Z]',
  accessNames: '^access[A-Z]',
};

const forbiddenFor = (layer) => {
  const allowed = new Set(layer in LAYERS ? [...LAYERS[layer], ...PURE] : PURE_LAYERS[layer]);
  const own = layer.startsWith('lib/') ? layer.slice(4).split('/')[0] : null;
  return LIB.filter((name) => name !== own && !allowed.has(name));
};

const layerRules = [...Object.keys(LAYERS), ...Object.keys(PURE_LAYERS)].map((layer) => ({
  files: [layer.endsWith('.ts') ? layer : `${layer}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...forbiddenFor(layer).map((name) => ({
            regex: `(^|/)lib/${name}(/|$)|^(\\.\\./)+${name}(/|$)`,
            message: `${layer} may not import lib/${name}${layer === 'functions' && name === 'access' ? `: ${HANDLER_CHECKS.why}` : ''} (docs/architecture.md, "Layers").`,
          })),
          ...(layer === 'functions'
            ? [
                {
                  regex: '.',
                  importNamePattern: HANDLER_CHECKS.names,
                  message: `functions may not import a require* check: ${HANDLER_CHECKS.why}.`,
                },
                {
                  regex: '(^|/)lib/actions(/|$)',
                  importNamePattern: HANDLER_CHECKS.accessNames,
                  message: `functions may not import an access* rule through lib/actions: ${HANDLER_CHECKS.why}.`,
                },
              ]
            : []),
        ],
      },
    ],
  },
}));

const topLevelRules = Object.entries(TOP_LEVEL).map(([file, allowed]) => ({
  files: [file],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^\\./(${LIB.join('|')})(/|$)`,
            message: `${file} is a leaf of lib and may import no lib folder (docs/architecture.md, "Layers").`,
          },
          ...Object.keys(TOP_LEVEL)
            .filter((other) => other !== file && !allowed.includes(other))
            .map((other) => ({
              regex: `^\\./${other.slice(4, -3)}$`,
              message: `${file} may not import ${other} (TOP_LEVEL in eslint.config.mjs; docs/architecture.md, "Layers").`,
            })),
        ],
      },
    ],
  },
}));

/**
 * The browser app talks to the service only over HTTP (docs/architecture.md, "The web app"): it
 * imports its own modules and its npm dependencies, never the service's code.
 */
const webappRules = {
  files: ['webapp/**/*.ts', 'webapp/**/*.tsx'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '^(\\.\\./)+(lib|functions|scripts|tables|test)(/|$)',
            message:
              'webapp talks to the service only over HTTP: it may not import lib/, functions/, scripts/, tables/ or test/ (docs/architecture.md).',
          },
        ],
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.serverless/**',
      '.build/**',
      '.esbuild/**',
      'coverage/**',
      'dist/**',
      'webapp/dist/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Type-aware rules: a promise nobody awaits or catches ends the process when it rejects (a
    // job's failure once took `npm start` down), so every promise is awaited, returned, caught
    // or explicitly `void`ed, and none is passed where a callback's result is ignored.
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  ...layerRules,
  ...topLevelRules,
  webappRules,
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
