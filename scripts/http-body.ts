import type { IncomingMessage } from 'node:http';

/** The whole body of an HTTP request or response that a local stand-in server (the test bouncer) or a test's proxy handles. */
export const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
