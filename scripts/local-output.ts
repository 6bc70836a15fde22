// What `npm start` prints (scripts/run-local.ts). serverless-offline lists every route and
// function (about 900 lines) and logs a few lines per request; a newcomer needs the address to
// open and how to sign in. So by default its output is left out except what tells of a failure,
// and a short banner follows the start; `npm start -- --verbose` (or VERBOSE=1) prints all of it.
// The local invoker's lines (a job's failed attempt, `{"asyncInvocation",…}`) and the progress
// lines are not serverless-offline's: they always show.

/** Whether serverless-offline's whole output is wanted: `--verbose`, VERBOSE=1, or `npm start --verbose` (npm's own log level). */
export const isVerbose = (argv: readonly string[], env: NodeJS.ProcessEnv): boolean =>
  argv.includes('--verbose') || /^(1|true|yes|on)$/i.test(env.VERBOSE ?? '') || env.npm_config_loglevel === 'verbose';

/** The levels of the service's own JSON log lines (lib/log.ts) that are routine: a request's log line. */
const ROUTINE_LEVELS = new Set(['info', 'debug']);

/** serverless-offline's and Node's words for something that went wrong, and a stack trace's lines. */
const TROUBLE = /error|exception|warn|fail|unhandled|cannot|refused|timed? ?out|✖|EADDRINUSE|^\s+at /i;

/**
 * Whether a line of serverless-offline's output shows without --verbose: the handlers' JSON log
 * lines except the routine ones (every error and warning the service logs is JSON, with `level`
 * or without), and any other line that tells of trouble (an exception's message and stack, a
 * handler that failed to load, a Lambda timeout).
 */
export const mattersWhenQuiet = (line: string): boolean => {
  if (line.trimStart().startsWith('{')) {
    try {
      const parsed = JSON.parse(line) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        const { level, _aws: metrics } = parsed as { level?: unknown; _aws?: unknown };
        // A metrics line (embedded metric format) is routine too.
        return !(metrics !== undefined || (typeof level === 'string' && ROUTINE_LEVELS.has(level.toLowerCase())));
      }
    } catch {
      // Not JSON after all: judged by its words.
    }
  }
  return TROUBLE.test(line);
};

export type BannerOptions = {
  /** http://localhost:<port> */
  origin: string;
  baseUrl: string;
  dynamodbEndpoint: string;
  tablePrefix: string;
  developmentMode: boolean;
  verbose: boolean;
};

/** The lines printed once the service answers, ending with the ready line and where to go. */
export const readyBanner = (o: BannerOptions): string => {
  const signIn = o.developmentMode
    ? [
        `Open ${o.origin}/ in a browser and sign in as anyone of the development organization, with a click:`,
        `  ${o.origin}/devlogin/ (iago@zulip.com is an administrator, hamlet@zulip.com a member).`,
      ]
    : [
        `Open ${o.origin}/ in a browser and sign in with a seeded account's password, which`,
        `  DEV_PASSWORD_SECRET=<as set here> npm run password -- iago@zulip.com prints.`,
      ];
  return [
    '',
    `Base URL: ${o.baseUrl}`,
    ...(o.developmentMode
      ? [
          `  curl -sS -X POST ${o.baseUrl}/dev_fetch_api_key --data-urlencode username=iago@zulip.com`,
          `Emails sent (invitations): ${o.origin}/emails/`,
        ]
      : []),
    'Create an organization (in another terminal):',
    `  DYNAMODB_ENDPOINT=${o.dynamodbEndpoint} TABLE_PREFIX=${o.tablePrefix} EXTERNAL_URL=${o.origin} npm run create-realm-link`,
    o.verbose
      ? "serverless-offline's output is shown in full (--verbose)."
      : "serverless-offline's own output (every route, a line per request) is left out: npm start -- --verbose shows it.",
    '',
    `The chat service is ready (DynamoDB at ${o.dynamodbEndpoint}). Press Ctrl-C to stop.`,
    ...signIn,
  ].join('\n');
};
