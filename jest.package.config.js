/**
 * `npm run test:package`: the full `serverless package` check (test/package/), every function
 * bundled, which takes minutes and gigabytes and so is not part of `npm test`; .ci/run runs it
 * after the suite. The handlers project's setup (DynamoDB Local, fresh tables): a packaged handler
 * runs against them.
 */
const { projects, ...config } = require('./jest.config.js');

const handlers = projects.find((p) => p.displayName === 'handlers');

module.exports = {
  ...config,
  maxWorkers: 1,
  projects: [
    { ...handlers, displayName: 'package', testMatch: ['<rootDir>/test/package/**/*.test.ts'], testPathIgnorePatterns: ['/node_modules/'] },
  ],
};
