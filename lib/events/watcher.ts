// One watcher per process: the waiting polls of one process share their reads of the organization
// stream shard heads. A module-level registry keeps, per shard head some poll waits on, one reader:
// it reads that head (one item, eventually consistent) and wakes the polls waiting on it when the
// head changed (its `seq` or its `bell`). It stops when no poll waits. Its schedule:
// - fewer than BUSY_WATCHERS polls watching (standard Lambda holds one): the schedule a lone
//   waiting poll follows, the configured minimum interval growing ×POLL_INTERVAL_GROWTH up to the
//   maximum, started again from the minimum whenever a poll starts waiting;
// - BUSY_WATCHERS or more (a long-lived process, managed instances): every BUSY_INTERVAL_MS,
//   however many polls start, so its reads are a fixed cost shared by all of them (restarting
//   from the minimum for each of many starting polls would read about every 25–40 ms).
import { nowMs } from '../clock';
import { config } from '../config';
import * as streams from '../store/event-streams';
import { log } from '../log';

/**
 * Each check comes this much later than the previous one, up to the configured maximum: 25, 40,
 * 64, 103, 165, 264, 423, 677, 900… ms (docs/data-model.md, "Waiting").
 */
export const POLL_INTERVAL_GROWTH = 1.6;

/**
 * From this many polls watching one shard head, its reader reads at a fixed interval: about where
 * the lone schedule, restarted by each of them starting once per long-poll, reads as often.
 */
export const BUSY_WATCHERS = 12;
/** A busy reader's interval: an event early in a wait is seen within it (delivery p99 ≤ 200 ms). */
export const BUSY_INTERVAL_MS = 150;

/** Reads of shard heads this process made (for tests and the benchmark). */
export const watcherStats = { reads: 0 };

/**
 * A head as read, numbered: `version` grows each time the head read differs from the one before.
 * `readDoneMs` is when the read was done by the service's clock, `readDoneAt` by performance.now().
 */
export type HeadReading = { head: streams.StreamHead; version: number; readDoneMs: number; readDoneAt: number };

type Waiter = { seen: number; resolve: (r: HeadReading | null) => void; timer: ReturnType<typeof setTimeout> };

/** One shard head's reader and the polls waiting on it. */
class ShardWatcher {
  latest: HeadReading | undefined;
  private waiters = new Set<Waiter>();
  /** Polls currently watching (between watch and unwatch), whether or not one is waiting now. */
  private watching = 0;
  private interval = config.pollMinIntervalMs();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private nextReadMs = Infinity;
  private reading = false;
  /** A poll started watching during a read: the next interval is the minimum again. */
  private restart = false;

  constructor(
    readonly stream: string,
    private readonly onIdle: () => void,
  ) {}

  /** A poll starts watching: a quiet reader's schedule starts again from the minimum interval. */
  watch(): void {
    this.watching += 1;
    if (this.busy()) {
      if (!this.reading) this.schedule(nextBusyTick());
      return;
    }
    this.interval = config.pollMinIntervalMs();
    if (this.reading) this.restart = true;
    this.schedule(nowMs() + this.interval);
  }

  private busy(): boolean {
    return this.watching >= BUSY_WATCHERS;
  }

  unwatch(): void {
    this.watching -= 1;
    if (this.watching === 0) this.stop();
  }

  /** The first reading newer than `seen` (waits for one), or null at `untilMs`. */
  next(seen: number, untilMs: number): Promise<HeadReading | null> {
    if (this.latest && this.latest.version > seen) return Promise.resolve(this.latest);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        seen,
        resolve,
        timer: setTimeout(
          () => {
            this.waiters.delete(waiter);
            resolve(null);
          },
          Math.max(0, untilMs - nowMs()),
        ),
      };
      this.waiters.add(waiter);
    });
  }

  private schedule(at: number): void {
    if (this.reading || at >= this.nextReadMs) return;
    if (this.timer) clearTimeout(this.timer);
    this.nextReadMs = at;
    this.timer = setTimeout(() => void this.read(), Math.max(0, at - nowMs()));
  }

  private stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.nextReadMs = Infinity;
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.resolve(null);
    }
    this.waiters.clear();
    this.onIdle();
  }

  private async read(): Promise<void> {
    this.timer = undefined;
    this.nextReadMs = Infinity;
    this.reading = true;
    let head: streams.StreamHead | undefined;
    try {
      watcherStats.reads += 1;
      head = await readHead(this.stream);
    } catch (error) {
      // A failed read is retried on the schedule; the polls' own deadlines still bound their waits.
      log.error('shard head read failed', { stream: this.stream, error: String(error) });
    }
    this.reading = false;
    if (this.watching === 0) return;
    if (head) this.publish(head);
    const restart = this.restart;
    this.restart = false;
    if (this.busy()) {
      this.schedule(nextBusyTick());
      return;
    }
    this.interval = restart
      ? config.pollMinIntervalMs()
      : Math.min(config.pollMaxIntervalMs(), Math.ceil(this.interval * POLL_INTERVAL_GROWTH));
    this.schedule(nowMs() + this.interval);
  }

  private publish(head: streams.StreamHead): void {
    const prev = this.latest;
    const changed = !prev || prev.head.seq !== head.seq || prev.head.bell !== head.bell || prev.head.allocMs !== head.allocMs;
    this.latest = { head, version: changed ? (prev?.version ?? 0) + 1 : prev.version, readDoneMs: nowMs(), readDoneAt: performance.now() };
    remember(this.stream, this.latest);
    if (!changed) return;
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.resolve(this.latest);
    }
    this.waiters.clear();
  }
}

const watchers = new Map<string, ShardWatcher>();

/**
 * The next multiple of BUSY_INTERVAL_MS on the clock: the busy readers of a process read their
 * heads at the same moments, so that one request reads them all (readHead).
 */
const nextBusyTick = (): number => (Math.floor(nowMs() / BUSY_INTERVAL_MS) + 1) * BUSY_INTERVAL_MS;

/** The heads asked for and not yet read, and who waits for each. */
const wanted = new Map<string, { resolve: (h: streams.StreamHead | undefined) => void; reject: (e: unknown) => void }[]>();

/** How long a head read waits for others to go with it (timers due at one moment may fire a millisecond apart). */
const GATHER_MS = 2;

/** Reads a shard head with the others asked for within GATHER_MS: one BatchGetItem per 100 heads. */
const readHead = (stream: string): Promise<streams.StreamHead | undefined> =>
  new Promise((resolve, reject) => {
    if (wanted.size === 0) setTimeout(() => void readWanted(), GATHER_MS);
    wanted.set(stream, [...(wanted.get(stream) ?? []), { resolve, reject }]);
  });

const readWanted = async (): Promise<void> => {
  const batch = new Map(wanted);
  wanted.clear();
  const names = [...batch.keys()];
  await Promise.all(
    Array.from({ length: Math.ceil(names.length / 100) }, async (_, i) => {
      const chunk = names.slice(i * 100, i * 100 + 100);
      try {
        const heads = await streams.getHeads(chunk);
        for (const s of chunk) for (const w of batch.get(s)!) w.resolve(heads.get(s));
      } catch (error) {
        for (const s of chunk) for (const w of batch.get(s)!) w.reject(error);
      }
    }),
  );
};

/** The most shard heads whose last reading the process keeps after their readers stopped. */
const KEPT_READINGS = 1000;
const lastReadings = new Map<string, HeadReading>();
const remember = (stream: string, reading: HeadReading): void => {
  lastReadings.delete(stream);
  lastReadings.set(stream, reading);
  if (lastReadings.size > KEPT_READINGS) lastReadings.delete(lastReadings.keys().next().value!);
};

/**
 * The last reading of a shard head this process made, however old (also after its reader stopped).
 * A poll starting may take it instead of reading its streams: what it shows is already known, and
 * anything newer shows in a later reading, which wakes the poll.
 */
export const lastReading = (stream: string): HeadReading | undefined => lastReadings.get(stream);

/** A poll's view of one shard head: `next` wakes it when the head changed since it last looked. */
export type ShardWatch = {
  /** The next reading newer than the last one this watch returned, or null at `untilMs`. */
  next: (untilMs: number) => Promise<HeadReading | null>;
  /** The last reading of the head (seen or not), if any. */
  current: () => HeadReading | undefined;
  /** Stops watching (the reader stops when no poll of the process watches its shard). */
  close: () => void;
};

/** Starts watching a shard head; the caller must close it. */
export const watchShard = (stream: string): ShardWatch => {
  let watcher = watchers.get(stream);
  if (!watcher) {
    const created = new ShardWatcher(stream, () => {
      if (watchers.get(stream) === created) watchers.delete(stream);
    });
    watchers.set(stream, created);
    watcher = created;
  }
  const w = watcher;
  w.watch();
  let seen = 0;
  let closed = false;
  return {
    next: async (untilMs) => {
      const reading = await w.next(seen, untilMs);
      if (reading) seen = reading.version;
      return reading;
    },
    current: () => w.latest,
    close: () => {
      if (closed) return;
      closed = true;
      w.unwatch();
    },
  };
};

/** The shard heads this process reads now (for tests and the benchmark). */
export const activeWatchers = (): string[] => [...watchers.keys()];
