// POST /register catches up: a change made while it reads the state reaches the client exactly
// once, either in the state it returns or from its queue, never both and never neither.
import { handler as createDrafts } from '../../../functions/drafts/create';
import { handler as getEvents } from '../../../functions/events/get';
import { handler as register } from '../../../functions/events/register';
import { sendEvent } from '../../../lib/events/send';
import { STATE_BUILDERS } from '../../../lib/state';
import { draftsState } from '../../../lib/state/drafts';
import type { StateBuilder } from '../../../lib/state/registry';
import { call, expectSuccess } from '../../helpers/api';

const IAGO = 'iago@zulip.com';
const REALM = 2;

const createDraft = async (topic: string): Promise<number> => {
  const body = expectSuccess(
    await call(createDrafts, {
      method: 'POST',
      path: '/drafts',
      as: IAGO,
      params: { drafts: JSON.stringify([{ type: 'stream', to: [3], topic, content: 'written during register' }]) },
    }),
  );
  return (body.ids as number[])[0];
};

/** Runs `during` once, the first time the drafts state is read, before that read. */
const duringTheFirstDraftsRead = async <T>(during: () => Promise<void>, run: () => Promise<T>): Promise<T> => {
  const index = STATE_BUILDERS.indexOf(draftsState);
  let done = false;
  const wrapped: StateBuilder = async (ctx) => {
    if (!done) {
      done = true;
      await during();
    }
    return draftsState(ctx);
  };
  STATE_BUILDERS[index] = wrapped;
  try {
    return await run();
  } finally {
    STATE_BUILDERS[index] = draftsState;
  }
};

const registerForDrafts = async () =>
  expectSuccess(await call(register, { method: 'POST', path: '/register', as: IAGO, params: { event_types: ['drafts'] } }));

const drainEvents = async (queueId: string, lastEventId: number) =>
  expectSuccess(
    await call(getEvents, {
      method: 'GET',
      path: '/events',
      as: IAGO,
      params: { queue_id: queueId, last_event_id: lastEventId, dont_block: true },
    }),
  ).events as Record<string, any>[];

describe('POST /register catching up with changes made while it reads the state', () => {
  it('gives a draft created during the state read exactly once: in the state, not again from the queue', async () => {
    let draftId = 0;
    const body = await duringTheFirstDraftsRead(async () => {
      draftId = await createDraft('during register');
    }, registerForDrafts);
    const inState = (body.drafts as { id: number }[]).filter((d) => d.id === draftId);
    const fromQueue = (await drainEvents(body.queue_id, body.last_event_id)).filter(
      (e) => e.type === 'drafts' && e.op === 'add' && e.drafts.some((d: { id: number }) => d.id === draftId),
    );
    expect(inState.length + fromQueue.length).toBe(1);
    expect(inState).toHaveLength(1);
  });

  it('still delivers from the queue a change made after the register answered', async () => {
    const body = await registerForDrafts();
    const draftId = await createDraft('after register');
    expect((body.drafts as { id: number }[]).some((d) => d.id === draftId)).toBe(false);
    const events = await drainEvents(body.queue_id, body.last_event_id);
    expect(events).toEqual([
      { id: 0, type: 'drafts', op: 'add', drafts: [expect.objectContaining({ id: draftId, topic: 'after register' })] },
    ]);
  });

  it('does not read the state again for events the queue would not receive', async () => {
    let reads = 0;
    const counting: StateBuilder = async () => {
      reads += 1;
      if (reads === 1) await sendEvent(REALM, { type: 'alert_words', alert_words: ['not for a drafts queue'] }, 'realm');
      return {};
    };
    STATE_BUILDERS.push(counting);
    try {
      const body = await registerForDrafts();
      expect(reads).toBe(1);
      expect(await drainEvents(body.queue_id, body.last_event_id)).toEqual([]);
    } finally {
      STATE_BUILDERS.pop();
    }
  });
});
