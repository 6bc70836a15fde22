// Drafts kept on the server (/json/drafts), as upstream's drafts.ts syncs them: what is typed is
// saved a moment after the typing stops (created once, then edited), removed when the message is
// sent or emptied, and put back in the compose box on returning to its conversation.
import { request } from './api/client';
import type { Draft } from './api/types';
import { applyComposeEvent } from './data/compose-data';
import type { Destination } from './data/outbox';
import { update } from './store';

/** What the server now holds, in the state at once (its drafts event may come later, or to another queue only). */
const saved = (draft: Draft) =>
  update((state) => ({ ...state, compose: applyComposeEvent(state.compose, { id: 0, type: 'drafts', op: 'update', draft }) }));
const removed = (id: number) =>
  update((state) => ({ ...state, compose: applyComposeEvent(state.compose, { id: 0, type: 'drafts', op: 'remove', draft_id: id }) }));

const SAVE_AFTER_MS = 1000;

type Target = Pick<Draft, 'type' | 'to' | 'topic'>;

export const draftTarget = (to: Destination): Target =>
  to.kind === 'stream'
    ? { type: 'stream', to: [to.streamId], topic: to.topic }
    : { type: 'private', to: [...to.userIds].sort((a, b) => a - b), topic: '' };

/** One compose box's draft: its id once the server has it, and the pending save. */
export class DraftSaver {
  private id: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private saving: Promise<void> = Promise.resolve();
  /** Rises with each reset, so a save still under way for the previous conversation keeps its id to itself. */
  private generation = 0;

  /** Starts from a restored draft (its id), or from none. */
  reset(id: number | undefined): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.generation += 1;
    this.id = id;
  }

  /** Saves the content for the target after a pause in the typing; empty content removes the draft. */
  edited(target: Target | undefined, content: string): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.saving = this.saving.then(() => this.save(target, content)).catch(() => undefined);
    }, SAVE_AFTER_MS);
  }

  /** The message was sent: its draft goes. */
  sent(): void {
    clearTimeout(this.timer);
    this.saving = this.saving.then(() => this.remove()).catch(() => undefined);
  }

  private async save(target: Target | undefined, content: string): Promise<void> {
    if (content.trim() === '') return this.remove();
    const draft = { ...(target ?? { type: '' as const, to: [], topic: '' }), content, timestamp: Math.floor(Date.now() / 1000) };
    if (this.id === undefined) {
      const generation = this.generation;
      const [id] = (await request<{ ids: number[] }>('POST', 'drafts', { drafts: [draft] })).ids;
      if (generation === this.generation) this.id = id;
      saved({ ...draft, id: id! });
    } else {
      await request('PATCH', `drafts/${this.id}`, { draft });
      saved({ ...draft, id: this.id });
    }
  }

  private async remove(): Promise<void> {
    const id = this.id;
    this.id = undefined;
    if (id === undefined) return;
    removed(id);
    await request('DELETE', `drafts/${id}`);
  }
}
