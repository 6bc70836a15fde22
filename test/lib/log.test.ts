// Logs and metrics (lib/log.ts): Powertools' Logger writes one JSON line per entry; counts are summed
// in the process and written as one embedded-metric-format line at most every five minutes, so that an
// idle long-poll, which only counts, writes nothing.
describe('lib/log.ts', () => {
  const load = () => {
    // Metrics write in Powertools' development mode only when told to; through the global console.
    process.env.POWERTOOLS_DEV = 'true';
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    let mod!: typeof import('../../lib/log');
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      mod = require('../../lib/log');
    });
    return mod;
  };
  const lines: string[] = [];
  beforeEach(() => {
    lines.length = 0;
    jest.spyOn(console, 'log').mockImplementation((...args) => void lines.push(args.join(' ')));
    jest.spyOn(console, 'info').mockImplementation((...args) => void lines.push(args.join(' ')));
  });
  afterEach(() => {
    jest.restoreAllMocks();
    jest.useRealTimers();
    delete process.env.POWERTOOLS_METRICS_DISABLED;
  });

  it('writes a log entry as one JSON object with its level, message, service and fields', () => {
    load().log.info('digests sent', { realmId: 2, userIds: [10, 11] });
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ level: 'INFO', message: 'digests sent', service: 'chat', realmId: 2, userIds: [10, 11] }),
    ]);
  });

  it('sums counts and writes them every five minutes as one metric line, nothing in between', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { count, flushMetrics } = load();
    // lib/log.ts METRICS_FLUSH_MS: five minutes.
    const METRICS_FLUSH_MS = 300_000;
    for (let i = 0; i < 500; i += 1) {
      count('Polls');
      count('IdlePolls');
      flushMetrics();
    }
    count('EventsDelivered', 3);
    flushMetrics();
    expect(lines).toEqual([]);
    jest.setSystemTime(1_000_000 + METRICS_FLUSH_MS);
    flushMetrics();
    expect(lines).toHaveLength(1);
    const emf = JSON.parse(lines[0]!);
    expect(emf._aws.CloudWatchMetrics).toEqual([
      expect.objectContaining({
        Namespace: 'Chat',
        Dimensions: [['service']],
        Metrics: expect.arrayContaining([
          { Name: 'Polls', Unit: 'Count' },
          { Name: 'IdlePolls', Unit: 'Count' },
          { Name: 'EventsDelivered', Unit: 'Count' },
        ]),
      }),
    ]);
    expect(emf).toMatchObject({ service: 'chat', Polls: 500, IdlePolls: 500, EventsDelivered: 3 });
    // Nothing counted since: nothing written, whenever.
    jest.setSystemTime(1_000_000 + 10 * METRICS_FLUSH_MS);
    flushMetrics();
    flushMetrics(true);
    expect(lines).toHaveLength(1);
  });
});
