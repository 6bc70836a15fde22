// The one way to the search database: SQL with named parameters (`:name`) through the RDS Data
// API, to Aurora Serverless v2 PostgreSQL in AWS and to the local PGlite stand-in
// (scripts/local-search.ts) everywhere else, so the same statements run on both. Maps values to
// the Data API's typed parameters, reads rows from its JSON records, creates the schema once per
// process, and retries while a paused database resumes (docs/architecture.md, "Search").
import { DatabaseResumingException, ExecuteStatementCommand, RDSDataClient, type SqlParameter } from '@aws-sdk/client-rds-data';
import { config } from '../config';
import { ApiError, ErrorCode } from '../errors';
import { schemaStatements } from './sql';

/** A parameter value: numbers go as integers when whole, arrays and objects as JSON text (cast in the SQL). */
export type SqlValue = string | number | boolean | null | readonly unknown[];

let client: { key: string; client: RDSDataClient } | undefined;
const ensured = new Map<string, Promise<void>>();

const dataApi = (): RDSDataClient => {
  const db = config.searchDatabase();
  const key = `${db.endpoint ?? ''}|${config.region()}`;
  if (client?.key !== key) {
    client?.client.destroy();
    const local = db.endpoint
      ? {
          endpoint: db.endpoint,
          credentials: {
            accessKeyId: process.env.AWS_ACCESS_KEY_ID || 'local',
            secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY || 'local',
          },
        }
      : {};
    client = { key, client: new RDSDataClient({ region: config.region(), maxAttempts: 2, ...local }) };
  }
  return client.client;
};

/** Forgets the client and what was created (tests point a process at another schema). */
export const closeSearchClient = (): void => {
  client?.client.destroy();
  client = undefined;
  ensured.clear();
};

const toParameter = (name: string, value: SqlValue): SqlParameter => {
  if (value === null) return { name, value: { isNull: true } };
  if (typeof value === 'boolean') return { name, value: { booleanValue: value } };
  if (typeof value === 'number') return { name, value: Number.isInteger(value) ? { longValue: value } : { doubleValue: value } };
  if (typeof value === 'string') return { name, value: { stringValue: value } };
  return { name, value: { stringValue: JSON.stringify(value) } };
};

/** The schema's tables, with `{schema}` in a statement replaced by the configured one (quoted). */
const withSchema = (sql: string): string => sql.replaceAll('{schema}', `"${config.searchDatabase().schema.replaceAll('"', '')}"`);

/** 503 with a Retry-After: the database did not resume within the wait (never a 500). */
export class SearchUnavailableError extends ApiError {
  constructor(cause: unknown) {
    super('Search is starting up after a quiet period; try again in a few seconds.', {
      statusCode: 503,
      code: ErrorCode.SEARCH_UNAVAILABLE,
      headers: { 'Retry-After': '5' },
      cause,
    });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one statement and returns its rows (column name → value). While the database resumes
 * (DatabaseResumingException: Aurora paused at 0 capacity units; the call itself wakes it), it
 * tries again every second up to `config.searchResumeWaitMs()`, then throws SearchUnavailableError.
 */
const execute = async <T>(sql: string, params: Record<string, SqlValue>): Promise<T[]> => {
  const db = config.searchDatabase();
  const deadline = Date.now() + config.searchResumeWaitMs();
  for (;;) {
    try {
      const out = await dataApi().send(
        new ExecuteStatementCommand({
          resourceArn: db.resourceArn,
          secretArn: db.secretArn,
          database: db.database,
          sql: withSchema(sql),
          parameters: Object.entries(params).map(([name, value]) => toParameter(name, value)),
          formatRecordsAs: 'JSON',
        }),
      );
      return out.formattedRecords ? (JSON.parse(out.formattedRecords) as T[]) : [];
    } catch (error) {
      if (!(error instanceof DatabaseResumingException)) throw error;
      if (Date.now() + 1000 > deadline) throw new SearchUnavailableError(error);
      await sleep(1000);
    }
  }
};

/** Creates the schema and its tables if missing, once per process and schema. */
const ensureSchema = (): Promise<void> => {
  const schema = config.searchDatabase().schema;
  let done = ensured.get(schema);
  if (!done) {
    done = (async () => {
      for (const statement of schemaStatements) await execute(statement, {});
    })();
    done.catch(() => ensured.delete(schema));
    ensured.set(schema, done);
  }
  return done;
};

/** Runs a statement of lib/search/sql.ts against the search database (its schema created first). */
export const runSql = async <T = Record<string, unknown>>(sql: string, params: Record<string, SqlValue> = {}): Promise<T[]> => {
  await ensureSchema();
  return execute<T>(sql, params);
};

/**
 * Wakes a paused database without waiting for it (POST /register calls it, so the first search
 * of a session rarely waits): one cheap statement whose failure is ignored.
 */
export const wakeSearchDatabase = async (): Promise<void> => {
  const db = config.searchDatabase();
  try {
    await dataApi().send(
      new ExecuteStatementCommand({ resourceArn: db.resourceArn, secretArn: db.secretArn, database: db.database, sql: 'SELECT 1' }),
    );
  } catch {
    // Resuming, or unreachable: the search that follows retries or answers 503.
  }
};
