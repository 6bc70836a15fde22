// POST /register's catch-up for state read from eventually consistent indexes: after it read the
// state again, register applies the events that arrived meanwhile (and that the queue will not
// deliver) to the sections an index may not show yet, as upstream's apply_events does. Every
// applier is idempotent: the state usually already includes the change.
import type { ApiDraft } from '../models/draft';
import type { ApiEvent, DraftsEvent } from '../models/event';

type State = Record<string, unknown>;

const applyDrafts = (state: State, event: DraftsEvent): State => {
  if (!Array.isArray(state.drafts)) return state;
  const drafts = state.drafts as ApiDraft[];
  switch (event.op) {
    case 'add': {
      const added = new Set(event.drafts.map((d) => d.id));
      return { ...state, drafts: [...event.drafts, ...drafts.filter((d) => !added.has(d.id))] };
    }
    case 'update':
      return { ...state, drafts: [event.draft, ...drafts.filter((d) => d.id !== event.draft.id)] };
    case 'remove':
      return { ...state, drafts: drafts.filter((d) => d.id !== event.draft_id) };
  }
};

/** The state with every event applied whose section comes from an index (drafts: main.gsi1). */
export const applyCaughtUpEvents = (state: State, events: ApiEvent[]): State =>
  events.reduce((current, event) => (event.type === 'drafts' ? applyDrafts(current, event) : current), state);
