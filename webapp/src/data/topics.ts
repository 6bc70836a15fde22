// Resolved topics: upstream marks one by the "✔ " prefix of its name (RESOLVED_TOPIC_PREFIX).
export const RESOLVED_PREFIX = '✔ ';

export const isResolved = (topic: string): boolean => topic.startsWith(RESOLVED_PREFIX);

/** The topic's name once resolved, or unresolved: the prefix added, or removed with any repeats. */
export const toggledResolution = (topic: string): string =>
  isResolved(topic) ? topic.replace(/^(✔ )+/, '') : `${RESOLVED_PREFIX}${topic}`;
