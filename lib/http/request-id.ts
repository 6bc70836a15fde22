import { randomUUID } from 'node:crypto';

const generated = new WeakMap<object, string>();

/** The Lambda request id, or a generated one when the handler is called without a context. */
export const requestIdOf = (context: unknown): string => {
  const id = (context as { awsRequestId?: string } | undefined)?.awsRequestId;
  if (id) return id;
  if (context && typeof context === 'object') {
    if (!generated.has(context)) generated.set(context, randomUUID());
    return generated.get(context)!;
  }
  return randomUUID();
};
