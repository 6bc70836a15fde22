import type { IncomingMessage, ServerResponse } from 'node:http';

/** The whole body of an HTTP request or response that a local stand-in server (the test bouncer) or a test's proxy handles. */
export const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/**
 * A request listener from an async function: one that rejects answers 500 (or, once its answer has
 * begun, ends it) instead of leaving a rejection nobody handles, which would end the process.
 */
export const asyncListener =
  (handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>) =>
  (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: String((error as Error).message ?? error) }));
    });
  };
