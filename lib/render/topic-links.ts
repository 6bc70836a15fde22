// A topic's links (upstream's topic_links): every match of the organization's linkifiers and every
// raw URL in the topic. Linkifiers match as they do in message content (one compilation,
// compileLinkifiers); overlaps go to the earlier linkifier, then to the earlier position, and raw
// URLs come last. Listed by position.
import { compileLinkifiers, linkifierUrl } from './inline';
import type { RenderLinkifier } from './types';

export type TopicLink = { text: string; url: string };

type Candidate = TopicLink & { index: number };

// Upstream splits a topic at these characters and links a segment that starts with a URL, up to
// its trailing sentence punctuation. Unlike message content (inline.ts), bare domains without a
// scheme or www. are not linked here yet (upstream links those of known top-level domains).
const SPLITTER = /[ !;),'"]/;
const RAW_URL = /^((?:(?:https?|ftp):\/\/|www\.)[^\s<>]+?)[:?.>]*$/i;

const linkifierMatches = (topic: string, linkifiers: readonly RenderLinkifier[]): Candidate[] =>
  compileLinkifiers(linkifiers).flatMap(({ regex, urlTemplate }) =>
    regex.matchAll(topic).map((m) => ({ text: m.text, url: linkifierUrl(urlTemplate, m.groups), index: m.index })),
  );

const rawUrls = (topic: string): Candidate[] => {
  const found: Candidate[] = [];
  let pos = 0;
  while (pos < topic.length) {
    const split = SPLITTER.exec(topic.slice(pos));
    const end = split ? pos + split.index : topic.length;
    const m = RAW_URL.exec(topic.slice(pos, end));
    if (m && !/^(?:(?:https?|ftp):\/\/|www\.)$/i.test(m[1])) {
      const text = m[1];
      found.push({ text, url: /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`, index: pos });
    }
    pos = end + 1;
  }
  return found;
};

const overlaps = (a: Candidate, b: Candidate): boolean =>
  (b.index <= a.index && a.index < b.index + b.text.length) || (a.index <= b.index && b.index < a.index + a.text.length);

/** The links of a topic, [{text, url}] by position (upstream's topic_links); [] for the empty topic. */
export const topicLinks = (topic: string, linkifiers: readonly RenderLinkifier[]): TopicLink[] => {
  const applied: Candidate[] = [];
  for (const candidate of [...linkifierMatches(topic, linkifiers), ...rawUrls(topic)]) {
    if (applied.every((kept) => !overlaps(kept, candidate))) applied.push(candidate);
  }
  return applied.sort((a, b) => a.index - b.index).map(({ text, url }) => ({ text, url }));
};
