// Topics compare without case, as upstream's do: the one key for a channel's topic.
export const topicKey = (streamId: number, topic: string): string => `${streamId}:${topic.toLowerCase()}`;

export const sameTopic = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();
