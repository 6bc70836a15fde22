// How a waiting GET /events poll waits (lib/events/queues.ts fetchEvents): the engine hands a wait
// strategy what it needs (WaitContext), and the strategy decides when to read. The default,
// pollHeads, waits on the process's shared reader of the queue's shard head.
import { nowMs } from '../clock';
import * as streams from '../store/event-streams';
import { watchShard, type HeadReading } from './watcher';

/** What a waiting poll needs from the engine; a wait strategy decides when to call which. */
export type WaitContext = {
  /** The queue's streams and the cursors it has read them to. */
  readonly cursors: () => Record<string, number>;
  readonly streams: string[];
  /** The owner's sub-bell rings through which its user stream was read, if known. */
  readonly bellSeen: () => number | undefined;
  /**
   * Reads the shard stream if `reading` shows it past the cursor (or is absent), and the user
   * stream if `readUser`; true when the queue now holds events.
   */
  readonly ingest: (reading: HeadReading | undefined, readUser: boolean) => Promise<boolean>;
  /** When the wait must end with a heartbeat. */
  readonly deadline: number;
  /** When the deadline of a missing number the last read stopped at passes (then read again), if it stopped at one. */
  readonly gapDueMs: () => number | undefined;
  /** When the poll started its first read of the streams (a head read before then is older than that read). */
  readonly startedMs: number;
};

/**
 * A waiting strategy: resolves 'events' when the queue holds events, 'timeout' when the deadline
 * passed with nothing. Replaceable: the rest of fetchEvents does not depend on how it waits.
 */
export type WaitStrategy = (ctx: WaitContext) => Promise<'events' | 'timeout'>;

/**
 * The default strategy: waits on the process's shared reader of the queue's organization stream
 * shard head (lib/events/watcher.ts: one reader per shard head per process, on the schedule from
 * the configured minimum interval to the maximum), and is woken only when that head changed. It
 * reads its own user stream too only when its owner's sub-bell rang since the rings it knows
 * read (the queue's `bellSeen`; without one, any reading done after the poll's first read of its
 * streams). Whether the queue was deleted, or another poll of it filled it, the poll learns with
 * its one write at the deadline.
 */
export const pollHeads: WaitStrategy = async (ctx) => {
  const [shardStream, userStream] = ctx.streams;
  const watch = watchShard(shardStream);
  try {
    let bell = ctx.bellSeen();
    for (;;) {
      const gapDueMs = ctx.gapDueMs();
      const reading = await watch.next(Math.min(ctx.deadline, gapDueMs ?? Infinity));
      if (nowMs() >= ctx.deadline) return 'timeout';
      const gapDue = gapDueMs !== undefined && nowMs() >= gapDueMs;
      let readUser = gapDue;
      if (reading) {
        const rings = streams.ringsFor(reading.head, userStream);
        readUser ||= bell === undefined ? reading.readDoneMs >= ctx.startedMs : rings > bell;
        bell = Math.max(bell ?? 0, rings);
      }
      const latest = reading ?? watch.current();
      const shardNew = latest !== undefined && latest.head.seq > (ctx.cursors()[shardStream] ?? 0);
      if ((readUser || shardNew) && (await ctx.ingest(latest, readUser))) return 'events';
    }
  } finally {
    watch.close();
  }
};
