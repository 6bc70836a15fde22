// Bounded concurrency: one home for "run this over many items, at most N at a time".

/** Runs `fn` over `items` with at most `limit` calls in flight; results in item order. */
export const mapLimited = async <T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> => {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return results;
};

/**
 * A read started before it is known to be needed (a check may fail first): its failure is reported
 * where it is awaited, and an unawaited one is never an unhandled rejection.
 */
export const prefetch = <T>(promise: Promise<T>): Promise<T> => {
  promise.catch(() => undefined);
  return promise;
};
