// A jest reporter (jest.config.js `reporters`, beside 'default') that ends every run with the ten
// test files that took longest, so that the suite's time is seen where it goes; with
// TEST_TIMES_FILE set, it also writes every file's seconds there (JSON), for a closer look.
// Plain CommonJS: jest loads reporters without transforming them.
const fs = require('node:fs');
const path = require('node:path');

const SHOWN = 10;

class SlowestFilesReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    /** @type {{ file: string; seconds: number; tests: number }[]} */
    this.files = [];
  }

  onTestResult(test, result) {
    const { start, end } = result.perfStats;
    this.files.push({
      file: path.relative(this.rootDir, test.path),
      seconds: Math.max(0, end - start) / 1000,
      tests: result.numPassingTests + result.numFailingTests + result.numPendingTests + result.numTodoTests,
    });
  }

  onRunComplete() {
    if (this.files.length === 0) return;
    if (process.env.TEST_TIMES_FILE) fs.writeFileSync(process.env.TEST_TIMES_FILE, JSON.stringify(this.files, null, 1));
    const slowest = [...this.files].sort((a, b) => b.seconds - a.seconds).slice(0, SHOWN);
    const width = Math.max(...slowest.map((f) => f.file.length));
    const lines = slowest.map((f) => `  ${f.seconds.toFixed(1).padStart(7)} s  ${f.file.padEnd(width)}  ${f.tests} tests`);
    process.stderr.write(`\nSlowest test files (of ${this.files.length}):\n${lines.join('\n')}\n`);
  }
}

module.exports = SlowestFilesReporter;
