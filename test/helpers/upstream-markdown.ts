// Upstream's Markdown test cases (test/data/zulip-markdown-test-cases.json, see its NOTICE) as
// this project runs them: every regular case, and every linkify case expanded the way upstream's
// test_linkify expands it (the expected link is `<a href="...">url</a>` put in for `%s`, its href
// the URL itself when it starts with http, mailto: for an email address, else http://).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderMessage, type RenderInput } from '../../lib/render';

type RegularCase = {
  name: string;
  input: string;
  expected_output: string;
  translate_emoticons?: boolean;
  ignore?: boolean;
};
type Fixture = { regular_tests: RegularCase[]; linkify_tests: [string, string, string][] };

export type UpstreamCase = { name: string; input: string; expected: string; translateEmoticons: boolean };

const fixture = (): Fixture => JSON.parse(readFileSync(join(__dirname, '..', 'data', 'zulip-markdown-test-cases.json'), 'utf8')) as Fixture;

const linkifyExpected = (format: string, url: string): string => {
  if (!format.includes('%s')) return format;
  const href = url.startsWith('http') ? url : url.includes('@') ? `mailto:${url}` : `http://${url}`;
  return format.replace('%s', `<a href="${href}">${url}</a>`);
};

/** Every case of upstream's file, named as there (linkify cases as `linkify: <input>`). */
export const upstreamCases = (): UpstreamCase[] => {
  const data = fixture();
  return [
    ...data.regular_tests
      .filter((c) => !c.ignore)
      .map((c) => ({ name: c.name, input: c.input, expected: c.expected_output, translateEmoticons: c.translate_emoticons ?? false })),
    ...data.linkify_tests.map(([input, format, url]) => ({
      name: `linkify: ${input}`,
      input,
      expected: linkifyExpected(format, url),
      translateEmoticons: false,
    })),
  ];
};

/**
 * Cases that test what this service does not have, by name, with why. Not counted in the pass
 * rate; every other case is "applicable".
 */
export const NOT_APPLICABLE: Record<string, string> = {};

/** The organization upstream's test runs in: no users, groups, channels or linkifiers are named by the cases. */
export const caseInput = (c: UpstreamCase): RenderInput => ({
  users: [],
  groups: [],
  channels: [],
  linkifiers: [],
  translateEmoticons: c.translateEmoticons,
  realmUrl: 'http://zulip.testserver',
});

/** HTML compared as upstream's fixture test compares it here: whitespace between tags does not count. */
export const normalizeHtml = (html: string): string => html.replace(/>\s+</g, '><').trim();

export const renderCase = (c: UpstreamCase): string => renderMessage(c.input, caseInput(c)).html;

export const casePasses = (c: UpstreamCase): boolean => normalizeHtml(renderCase(c)) === normalizeHtml(c.expected);
