// Upstream's own Markdown test data (test/data/zulip-markdown-test-cases.json), rendered here and
// compared byte for byte after whitespace between tags. Cases that differ are listed, each with
// why, in upstream-differences.ts: a listed case that starts to match fails this test (take it off
// the list), as does an unlisted case that differs.
import { casePasses, NOT_APPLICABLE, normalizeHtml, renderCase, upstreamCases } from '../../helpers/upstream-markdown';
import { KNOWN_DIFFERENCES } from './upstream-differences';

const all = upstreamCases();
const applicable = all.filter((c) => !(c.name in NOT_APPLICABLE));

describe("upstream's Markdown test cases", () => {
  it.each(applicable.map((c) => [c.name, c] as const))('%s', (name, c) => {
    const got = normalizeHtml(renderCase(c));
    if (name in KNOWN_DIFFERENCES) expect(got).not.toBe(normalizeHtml(c.expected));
    else expect(got).toBe(normalizeHtml(c.expected));
  });

  it('lists differences and exclusions only of cases that exist, never both', () => {
    const names = new Set(all.map((c) => c.name));
    expect(Object.keys(KNOWN_DIFFERENCES).filter((n) => !names.has(n))).toEqual([]);
    expect(Object.keys(NOT_APPLICABLE).filter((n) => !names.has(n))).toEqual([]);
    expect(Object.keys(KNOWN_DIFFERENCES).filter((n) => n in NOT_APPLICABLE)).toEqual([]);
  });

  it('matches at least 98% of the applicable cases', () => {
    const passing = applicable.filter(casePasses).length;
    const rate = passing / applicable.length;
    console.log(
      `upstream Markdown cases: ${passing}/${applicable.length} applicable match (${(100 * rate).toFixed(1)}%); ${all.length - applicable.length} not applicable`,
    );
    expect(rate).toBeGreaterThanOrEqual(MIN_PASS_RATE);
  });
});

/** The floor the pass rate may not fall below (the goal). */
const MIN_PASS_RATE = 0.98;
