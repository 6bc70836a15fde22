/**
 * Three projects, so that each test file gets only the setup it needs and a run that selects some
 * files starts only what those need (jest runs a project's globalSetup only when one of its tests
 * runs):
 * - unit: pure functions, no database;
 * - handlers: handler, store and script tests against the shared DynamoDB Local, fresh tables per
 *   file (test/deploy too: it runs a packaged handler against them);
 * - e2e: over HTTP through serverless-offline (one per worker, shared by its files; e2e.ts).
 * test/package (the full `serverless package`) is left to its own run, jest.package.config.js.
 * Two workers: most of a test's time is waiting on DynamoDB Local or serverless-offline.
 */
const transform = { '^.+\\.(t|j|mj)s$': ['@swc/jest', { jsc: { target: 'es2022' } }] };
// middy 6 ships ESM only; let swc turn it into CommonJS for jest.
const transformIgnorePatterns = [
  '/node_modules/(?!(@middy|@shikijs|oniguruma-to-es|oniguruma-parser|regex|regex-recursion|regex-utilities)/)',
];
const base = { testEnvironment: 'node', rootDir: __dirname, transform, transformIgnorePatterns };

/** Test files of pure code: no DynamoDB, no service. */
const UNIT = [
  '<rootDir>/test/lib/models/**/*.test.ts',
  '<rootDir>/test/lib/render/**/*.test.ts',
  '<rootDir>/test/lib/web/**/*.test.ts',
  '<rootDir>/test/lib/validation/**/*.test.ts',
  '<rootDir>/test/lib/emoji/**/*.test.ts',
  '<rootDir>/test/lib/config.test.ts',
  '<rootDir>/test/lib/log.test.ts',
  '<rootDir>/test/lint/**/*.test.ts',
  '<rootDir>/test/webapp/**/*.test.ts',
  '<rootDir>/test/stacks/**/*.test.ts',
];
const E2E = ['<rootDir>/test/e2e/**/*.test.ts'];
/** The full `serverless package` check: not in `npm test` (minutes, gigabytes); `npm run test:package` (jest.package.config.js). */
const PACKAGE = ['<rootDir>/test/package/**/*.test.ts'];

const stores = {
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
};

module.exports = {
  maxWorkers: 2,
  // A file's first test also loads the modules its handlers import (seconds on a loaded 2-core machine).
  testTimeout: 60000,
  // The ten slowest test files, with their seconds, after every run.
  reporters: ['default', '<rootDir>/test/helpers/slowest-files-reporter.js'],
  projects: [
    { ...base, displayName: 'unit', testMatch: UNIT },
    {
      ...base,
      ...stores,
      displayName: 'handlers',
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...[...UNIT, ...E2E, ...PACKAGE].map(globToRegex)],
      setupFilesAfterEnv: ['<rootDir>/test/helpers/jobs-in-process.ts', '<rootDir>/test/helpers/per-file-tables.ts'],
    },
    {
      ...base,
      ...stores,
      displayName: 'e2e',
      testMatch: E2E,
      setupFilesAfterEnv: ['<rootDir>/test/helpers/jobs-in-process.ts', '<rootDir>/test/helpers/openapi-hook.ts'],
    },
  ],
};

/** testPathIgnorePatterns takes regular expressions: the same globs, as such. */
function globToRegex(glob) {
  return glob
    .replace('<rootDir>', '')
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*\//g, '(.*/)?')
    .replace(/\*/g, '[^/]*');
}
