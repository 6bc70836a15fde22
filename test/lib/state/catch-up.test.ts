// Register's catch-up applies the events it skipped to sections read from an index that may lag.
import type { ApiDraft } from '../../../lib/models/draft';
import { applyCaughtUpEvents } from '../../../lib/state/catch-up';

const draft = (id: number, topic = `t${id}`): ApiDraft => ({ id, type: 'stream', to: [3], topic, content: 'c', timestamp: id });

describe('applyCaughtUpEvents', () => {
  it('adds a draft the lagging index did not show yet, newest first', () => {
    expect(applyCaughtUpEvents({ drafts: [draft(1)] }, [{ type: 'drafts', op: 'add', drafts: [draft(2)] }])).toEqual({
      drafts: [draft(2), draft(1)],
    });
  });

  it('adds nothing twice when the index already showed the draft', () => {
    expect(applyCaughtUpEvents({ drafts: [draft(2), draft(1)] }, [{ type: 'drafts', op: 'add', drafts: [draft(2)] }])).toEqual({
      drafts: [draft(2), draft(1)],
    });
  });

  it('applies an update and a removal in the order they were sent', () => {
    const state = { drafts: [draft(1), draft(2)] };
    expect(
      applyCaughtUpEvents(state, [
        { type: 'drafts', op: 'update', draft: draft(2, 'edited') },
        { type: 'drafts', op: 'remove', draft_id: 1 },
      ]),
    ).toEqual({ drafts: [draft(2, 'edited')] });
  });

  it('leaves the state alone when the client did not ask for drafts', () => {
    expect(applyCaughtUpEvents({ realm_users: [] }, [{ type: 'drafts', op: 'remove', draft_id: 1 }])).toEqual({ realm_users: [] });
  });
});
