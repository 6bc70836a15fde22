// Loaded by per-file-tables.ts: every response a handler test receives through call() is checked
// against the OpenAPI description, so a wrong type or an unknown field fails the test that saw it.
import { responseChecks, type CallOptions } from './api';
import { validateResponse } from './openapi';

/** The operation a response answers: a /json/ POST that tunnels another method (`method=PATCH`) is that method's. */
const operationMethod = (opts: CallOptions): string => {
  const tunnelled = opts.json && opts.method === 'POST' ? opts.params?.method : undefined;
  return typeof tunnelled === 'string' ? tunnelled.toUpperCase() : (opts.method ?? 'GET');
};

responseChecks.push((opts, result) => validateResponse(operationMethod(opts), opts.path, result.status, result.body));
