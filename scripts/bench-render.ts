// Markdown rendering benchmark (`npm run bench render`): the renderer alone (lib/render, no
// DynamoDB), over upstream's own Markdown test cases (test/data/zulip-markdown-test-cases.json)
// and over 10,000-character messages (the longest a message may be): one of mixed Markdown, one
// highlighted Python code block, and one of bare domains and dotted words (the web-link pattern's
// worst input). Also the share of
// upstream's applicable cases that match byte for byte (test/lib/render/upstream-cases.test.ts).
import { performance } from 'node:perf_hooks';
import { renderMessage } from '../lib/render';
import { caseInput, casePasses, NOT_APPLICABLE, upstreamCases, type UpstreamCase } from '../test/helpers/upstream-markdown';
import { percentile } from './bench-util';

const ROUNDS = 20;
const LONG_RUNS = 100;
const MESSAGE_LENGTH = 10_000;

const timesOf = (runs: number, fn: (i: number) => void): number[] =>
  Array.from({ length: runs }, (_, i) => {
    const start = performance.now();
    fn(i);
    return performance.now() - start;
  });

const line = (label: string, times: number[]): string =>
  `${label} | ${String(times.length).padStart(5)} | p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms`;

const fill = (unit: string): string => unit.repeat(Math.ceil(MESSAGE_LENGTH / unit.length)).slice(0, MESSAGE_LENGTH);

const MIXED = fill(
  'Some **bold** and *emphasis* text with a link https://example.com/path?q=1 and example.org, `code`, :smile: 🙂, $$x^2+y^2$$ and <time:2024-05-01T10:00:00Z>.\n' +
    '* a list item with [a label](https://example.com/a.png)\n> a quote line\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```python\nprint("hi")\n```\n',
);
const DOTTED = fill('a.b.c.d.e.f.g.h.i.j.example.com.notatld.x ');
/** One highlighted code block (lib/render/highlight.ts) of nearly the whole length. */
const CODE = `\`\`\`python\n${fill('def speak(self, x=1):\n    """Say it."""\n    return f"{x} said" if x > 0 else None  # done\n').slice(0, MESSAGE_LENGTH - 20)}\n\`\`\``;

export const benchRender = async (): Promise<void> => {
  const cases = upstreamCases();
  const applicable = cases.filter((c) => !(c.name in NOT_APPLICABLE));
  const render = (c: UpstreamCase) => renderMessage(c.input, caseInput(c));
  cases.forEach(render); // warm up (KaTeX, the emoji tables, the web-link pattern)
  const caseTimes = Array.from({ length: ROUNDS }, () => cases.flatMap((c) => timesOf(1, () => render(c)))).flat();
  const input = caseInput(cases[0]);
  const passing = applicable.filter(casePasses).length;
  console.log(`\n## render: the Markdown renderer alone (Node ${process.version})\n`);
  console.log(
    `upstream's Markdown test cases: ${passing}/${applicable.length} applicable match byte for byte (${((100 * passing) / applicable.length).toFixed(1)}%)\n`,
  );
  console.log('rendering | runs | time');
  console.log(line(`upstream's ${cases.length} test cases, each`, caseTimes));
  console.log(
    line(
      '10,000-character message, mixed Markdown',
      timesOf(LONG_RUNS, (i) => renderMessage(`${i} ${MIXED}`, input)),
    ),
  );
  console.log(
    line(
      '10,000-character message, one Python code block',
      timesOf(LONG_RUNS, (i) => renderMessage(`${i}\n${CODE}`, input)),
    ),
  );
  console.log(
    line(
      '10,000-character message, dotted words',
      timesOf(LONG_RUNS, (i) => renderMessage(`${i} ${DOTTED}`, input)),
    ),
  );
};
