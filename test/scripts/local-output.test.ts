// What `npm start` prints (scripts/local-output.ts): which of serverless-offline's lines show
// without --verbose, how verbose is asked for, and the banner.
import { isVerbose, mattersWhenQuiet, readyBanner } from '../../scripts/local-output';

describe("serverless-offline's lines without --verbose", () => {
  it.each([
    ['its route listing', '│   GET    | http://localhost:45369/api/v1/users/{user_id_or_email}            │'],
    ['its function listing', '   * webHome: chat-local-webHome'],
    ['its ready line', 'Server ready: http://localhost:45369 🚀'],
    ['a request line', 'GET /login (λ: webLoginPage)'],
    ['a duration line', '(λ: webLoginPage) RequestId: df96a931  Duration: 99.38 ms  Billed Duration: 100 ms'],
    [
      "a request's log line",
      '{"level":"INFO","message":"request","timestamp":"2026-11-29T00:00:00.000Z","service":"chat","sampling_rate":0,"route":"GET /login/","status":200,"durationMs":98,"requestId":"df96a931"}',
    ],
    [
      'a metrics line',
      '{"_aws":{"Timestamp":1,"CloudWatchMetrics":[{"Namespace":"Chat","Dimensions":[["service"]],"Metrics":[]}]},"service":"chat","Polls":3}',
    ],
  ])('leaves out %s', (_, line) => {
    expect(mattersWhenQuiet(line)).toBe(false);
  });

  it.each([
    [
      'an unhandled exception of a handler',
      '{"level":"ERROR","message":"unhandled exception","service":"chat","requestId":"r","error":{"name":"TypeError"}}',
    ],
    ['a warning of an action', '{"level":"WARN","message":"Notification Bot missing: notices not sent","service":"chat","notices":2}'],
    ['an error logged without a level', '{"push":"job not started","realmId":2,"messageId":5,"error":"Throttled"}'],
    ['a job run that failed', '{"asyncInvocation":"chat-local-push","requestId":"r","attempt":1,"error":"boom"}'],
    ["serverless-offline's own error", "✖ Unhandled exception in handler 'getUser'."],
    ['an error message', "Error: Cannot find module '../../lib/nope'"],
    ['a line of a stack trace', '    at Object.<anonymous> (/work/lib/x.ts:1:1)'],
    ['a Lambda timeout', '✖ [504] - Lambda timeout.'],
    ['a port in use', 'listen EADDRINUSE: address already in use :::3000'],
  ])('shows %s', (_, line) => {
    expect(mattersWhenQuiet(line)).toBe(true);
  });
});

describe('the verbose flag', () => {
  it.each([
    [['node', 'run-local.ts', '--verbose'], {}, true],
    [['node', 'run-local.ts'], { VERBOSE: '1' }, true],
    [['node', 'run-local.ts'], { VERBOSE: 'true' }, true],
    [['node', 'run-local.ts'], { npm_config_loglevel: 'verbose' }, true],
    [['node', 'run-local.ts'], {}, false],
    [['node', 'run-local.ts'], { VERBOSE: '0' }, false],
    [['node', 'run-local.ts', '--persist'], { VERBOSE: '' }, false],
  ])('is %j with %j', (argv, env, expected) => {
    expect(isVerbose(argv, env as NodeJS.ProcessEnv)).toBe(expected);
  });
});

describe('the banner', () => {
  const options = {
    origin: 'http://localhost:3000',
    baseUrl: 'http://localhost:3000/api/v1',
    dynamodbEndpoint: 'http://127.0.0.1:8000',
    tablePrefix: 'chat-local-',
    developmentMode: true,
    verbose: false,
  };

  it('is a dozen lines that end with the ready line, the address to open and the development login', () => {
    expect(readyBanner(options)).toBe(
      [
        '',
        'Base URL: http://localhost:3000/api/v1',
        '  curl -sS -X POST http://localhost:3000/api/v1/dev_fetch_api_key --data-urlencode username=iago@zulip.com',
        'Emails sent (invitations): http://localhost:3000/emails/',
        'Create an organization (in another terminal):',
        '  DYNAMODB_ENDPOINT=http://127.0.0.1:8000 TABLE_PREFIX=chat-local- EXTERNAL_URL=http://localhost:3000 npm run create-realm-link',
        "serverless-offline's own output (every route, a line per request) is left out: npm start -- --verbose shows it.",
        '',
        'The chat service is ready (DynamoDB at http://127.0.0.1:8000). Press Ctrl-C to stop.',
        'Open http://localhost:3000/ in a browser and sign in as anyone of the development organization, with a click:',
        '  http://localhost:3000/devlogin/ (iago@zulip.com is an administrator, hamlet@zulip.com a member).',
      ].join('\n'),
    );
  });

  it('offers neither the development login nor its curl outside development mode', () => {
    const banner = readyBanner({ ...options, developmentMode: false });
    expect(banner).not.toContain('devlogin');
    expect(banner).not.toContain('dev_fetch_api_key');
    expect(banner).toContain('npm run password -- iago@zulip.com');
  });
});
