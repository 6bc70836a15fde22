// The layer rule of eslint.config.mjs (docs/architecture.md, "Layers"), run through ESLint's API on
// small sources with the project's configuration. ESLint loads its configuration with a dynamic
// import, which jest's module system does not allow, so the lint runs in a child Node process.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

type Finding = { ruleId: string | null; message: string };

const ROOT = path.resolve(__dirname, '../..');

const LINT = `
import { ESLint } from 'eslint';
const sources = JSON.parse(await new Promise((resolve) => {
  let text = '';
  process.stdin.on('data', (chunk) => (text += chunk)).on('end', () => resolve(text));
}));
// The layer rule needs no types: without the type-aware rules' program (eslint.config.mjs builds
// one for the whole project), each snippet lints in milliseconds instead of seconds.
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: [
    {
      languageOptions: { parserOptions: { projectService: false, project: null } },
      rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
    },
  ],
});
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
      {
        filePath: 'functions/reminders/delete.ts',
        code: "import { accessReminder } from '../../lib/actions/reminders';\nexport const f = accessReminder;\n",
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

  it('refuses a handler importing an access* rule through lib/actions', () => {
    expect(findings[5]).toEqual([
      {
        ruleId: 'no-restricted-imports',
        message: expect.stringContaining(`functions may not import an access* rule through lib/actions: ${HANDLER_CHECKS}`),
      },
    ]);
  });

  it('accepts a handler that calls an action, which checks', () => {
    expect(findings[3]).toEqual([]);
  });

  it('lets an action import the role checks', () => {
    expect(findings[4]).toEqual([]);
  });
});

describe('the layer rule: folders nested in a layer', () => {
  let findings: Finding[][];

  beforeAll(() => {
    findings = lint([
      {
        filePath: 'lib/actions/messages/send.ts',
        code: "import { realmUserState } from '../../state/realm-user';\nexport const f = realmUserState;\n",
      },
      {
        filePath: 'lib/actions/register.ts',
        code: "import { applyCaughtUpEvents } from '../state/catch-up';\nexport const f = applyCaughtUpEvents;\n",
      },
      {
        filePath: 'lib/actions/messages/send.ts',
        code: "import { checkCanMentionGroups } from '../../access/mentions';\nexport const f = checkCanMentionGroups;\n",
      },
      {
        filePath: 'lib/events/filters/message.ts',
        code: "import { sendMessage } from '../../actions/messages/send';\nexport const f = sendMessage;\n",
      },
    ]);
  }, 60_000);

  it('refuses an action in a domain folder importing lib/state', () => {
    expect(findings[0]).toEqual([
      { ruleId: 'no-restricted-imports', message: expect.stringContaining('lib/actions may not import lib/state') },
    ]);
  });

  it('lets the register action import lib/state', () => {
    expect(findings[1]).toEqual([]);
  });

  it('lets an action in a domain folder import lib/access', () => {
    expect(findings[2]).toEqual([]);
  });

  it('refuses a module two folders down importing a layer above it', () => {
    expect(findings[3]).toEqual([
      { ruleId: 'no-restricted-imports', message: expect.stringContaining('lib/events may not import lib/actions') },
    ]);
  });
});

describe("the layer rule: lib's top-level modules are leaves", () => {
  let findings: Finding[][];

  beforeAll(() => {
    findings = lint([
      { filePath: 'lib/config.ts', code: "import { renderPlainMarkdown } from './render';\nexport const f = renderPlainMarkdown;\n" },
      { filePath: 'lib/clock.ts', code: "import { config } from './config';\nexport const f = config;\n" },
      { filePath: 'lib/passwords.ts', code: "import { config } from './config';\nexport const f = config;\n" },
    ]);
  }, 60_000);

  it('refuses a top-level module importing a lib folder', () => {
    expect(findings[0]).toEqual([
      { ruleId: 'no-restricted-imports', message: expect.stringContaining('lib/config.ts is a leaf of lib and may import no lib folder') },
    ]);
  });

  it('refuses a top-level module importing another its row does not name', () => {
    expect(findings[1]).toEqual([
      { ruleId: 'no-restricted-imports', message: expect.stringContaining('lib/clock.ts may not import lib/config.ts') },
    ]);
  });

  it('accepts a top-level module importing one its row names', () => {
    expect(findings[2]).toEqual([]);
  });

  it('has a row for every top-level module of lib', () => {
    const rows: string[] = JSON.parse(
      execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          "const m = await import('./eslint.config.mjs'); process.stdout.write(JSON.stringify(Object.keys(m.TOP_LEVEL)));",
        ],
        { cwd: ROOT, encoding: 'utf8' },
      ),
    );
    const files = readdirSync(path.join(ROOT, 'lib'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => `lib/${f}`);
    expect(rows.sort()).toEqual(files.sort());
  });
});

/** Every module of lib (relative paths), with the lib modules each imports (type-only imports included). */
const libImports = (): Map<string, string[]> => {
  const modules = (readdirSync(path.join(ROOT, 'lib'), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join('lib', f));
  const specifier = /^(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/gms;
  return new Map(
    modules.map((file) => {
      const imported = [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(specifier)]
        .map((m) => path.join(path.dirname(file), m[1]))
        .filter((target) => !target.endsWith('.json'))
        .map((target) => (existsSync(path.join(ROOT, `${target}.ts`)) ? `${target}.ts` : path.join(target, 'index.ts')));
      return [file, imported];
    }),
  );
};

/** The import cycles of a graph: its strongly connected components of more than one module (Tarjan). */
const cyclesOf = (graph: Map<string, string[]>): string[][] => {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
};

describe("lib's import graph", () => {
  const graph = libImports();

  it('resolves every relative import of lib to a module', () => {
    const missing = [...graph].flatMap(([file, imported]) => imported.filter((t) => !graph.has(t)).map((t) => `${file} → ${t}`));
    expect(missing).toEqual([]);
  });

  it('has no import cycle, within a folder or across folders', () => {
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    expect(
      cyclesOf(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
  });
});
