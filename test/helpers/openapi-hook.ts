// Loaded by per-file-tables.ts: every response a handler test receives through call() is checked
// against the OpenAPI description, so a wrong type or an unknown field fails the test that saw it.
import { responseChecks } from './api';
import { validateResponse } from './openapi';

responseChecks.push((opts, result) => validateResponse(opts.method ?? 'GET', opts.path, result.status, result.body));
