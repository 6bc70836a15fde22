// The layer rule of eslint.config.mjs (docs/architecture.md, "Layers"), run through ESLint's API on
// small sources with the project's configuration. ESLint loads its configuration with a dynamic
// import, which jest's module system does not allow, so the lint runs in a child Node process.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

type Finding = { ruleId: string | null; message: string };

const ROOT = path.resolve(__dirname, '../..');

const LINT = `
import { ESLint } from 'eslint';
const sources = JSON.parse(await new Promise((resolve) => {
  let text = '';
  process.stdin.on('data', (chunk) => (text += chunk)).on('end', () => resolve(text));
}));
const eslint = new ESLint({ cwd: process.cwd() });
const out = [];
for (const { filePath, code } of sources) {
  const [result] = await eslint.lintText(code, { filePath });
  out.push(result.messages.map(({ ruleId, message }) => ({ ruleId, message })));
}
process.stdout.write(JSON.stringify(out));
`;

/** Lints each source as the file it names (relative to the project), in one ESLint run. */
const lint = (sources: { filePath: string; code: string }[]): Finding[][] =>
  JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', LINT], {
      cwd: ROOT,
      input: JSON.stringify(sources.map((s) => ({ ...s, filePath: path.join(ROOT, s.filePath) }))),
      encoding: 'utf8',
    }),
  );

const HANDLER_CHECKS = 'a handler calls an action, and the action checks its permissions';

describe('the layer rule: handlers call actions, which check', () => {
  let findings: Finding[][];

  beforeAll(() => {
    findings = lint([
      {
        filePath: 'functions/linkifiers/create.ts',
        code: "import { requireRealmAdmin } from '../../lib/access/roles';\nexport const f = requireRealmAdmin;\n",
      },
      {
        filePath: 'functions/messages/get.ts',
        code: "import { accessMessage } from '../../lib/access/messages';\nexport const f = accessMessage;\n",
      },
      {
        filePath: 'functions/drafts/list.ts',
        code: "import { requireDraftsSynchronization } from '../../lib/actions/drafts';\nexport const f = requireDraftsSynchronization;\n",
      },
      { filePath: 'functions/linkifiers/create.ts', code: readFileSync(path.join(ROOT, 'functions/linkifiers/create.ts'), 'utf8') },
      {
        filePath: 'lib/actions/organization/linkifiers.ts',
        code: "import { requireRealmAdmin } from '../../access/roles';\nexport const f = requireRealmAdmin;\n",
      },
    ]);
  }, 60_000);

  it('refuses a handler importing the role checks of lib/access/roles.ts', () => {
    expect(findings[0]).toEqual([
      {
        ruleId: 'no-restricted-imports',
        message: expect.stringContaining(`functions may not import lib/access: ${HANDLER_CHECKS}`),
      },
      { ruleId: 'no-restricted-imports', message: expect.stringContaining(`functions may not import a require* check: ${HANDLER_CHECKS}`) },
    ]);
  });

  it('refuses a handler importing any other module of lib/access (message access)', () => {
    expect(findings[1]).toEqual([
      {
        ruleId: 'no-restricted-imports',
        message: expect.stringContaining(`functions may not import lib/access: ${HANDLER_CHECKS}`),
      },
    ]);
  });

  it('refuses a handler importing a require* check from outside lib/access', () => {
    expect(findings[2]).toEqual([
      { ruleId: 'no-restricted-imports', message: expect.stringContaining(`functions may not import a require* check: ${HANDLER_CHECKS}`) },
    ]);
  });

  it('accepts a handler that calls an action, which checks', () => {
    expect(findings[3]).toEqual([]);
  });

  it('lets an action import the role checks', () => {
    expect(findings[4]).toEqual([]);
  });
});
