// Server-side drafts: validation as upstream's DraftData + further_validated_draft_dict, and the
// create / edit / delete operations with their `drafts` events, which go to the owner's queues only.
import { accessChannelById } from '../access/channels';
import { accessActiveUsers } from '../access/users';
import { MAX_TIMESTAMP, nowMs } from '../clock';
import { BadRequestError, ResourceNotFoundError } from '../errors';
import { sendEvent } from '../events/send';
import { byEditTime, toApiDraft, type ApiDraft, type Draft, type DraftType } from '../models/draft';
import { normalizeMessageContent, normalizeTopic, pyStrip } from '../models/message-content';
import type { Realm } from '../models/realm';
import type { User } from '../models/user';
import { allocateIds, MAX_TRANSACTION_ITEMS } from '../store/common';
import * as draftsStore from '../store/drafts';
import { MESSAGES } from '../validation/messages';
import { float, int, list, literal, nullable, object, str, union, type Infer, type Validator } from '../validation/validators';
import { requiring } from './requiring';
import { accessDraft, requireDraftsSynchronization } from '../access/drafts';

/** A string stripped of surrounding whitespace that must not then be empty (RequiredStringConstraint). */
const requiredString: Validator<string> = (value, path) => {
  const stripped = pyStrip(str(value, path));
  if (stripped.length === 0) throw new BadRequestError(MESSAGES.blank(path));
  return stripped;
};

/** One draft as a client sends it (upstream's strict DraftData: unknown keys are refused). */
export const draftData = object(
  {
    type: literal('private', 'stream', ''),
    to: list(int),
    topic: str,
    content: requiredString,
    timestamp: nullable(union(int, float)),
  },
  { optional: ['timestamp'] },
);
export type DraftData = Infer<typeof draftData>;
const forSynchronizingUsers = <A extends unknown[], R>(act: (user: User, ...args: A) => Promise<R>) =>
  requiring(requireDraftsSynchronization, act);

/** Direct-message targets must be users of the organization; `to` becomes the other participants. */
const checkDraftRecipients = async (user: User, to: number[]): Promise<number[]> => {
  const ids = [...new Set(to)].sort((a, b) => a - b);
  await accessActiveUsers(user.realmId, ids, {
    unknown: ([id]) => new BadRequestError(`Invalid user ID ${id}`),
    deactivated: (target) => new BadRequestError(`'${target.email}' is no longer using Zulip.`),
  });
  const others = ids.filter((id) => id !== user.id);
  return others.length > 0 ? others : [user.id];
};

/**
 * Upstream's further validation of one draft, in its order: content (null bytes; truncation),
 * timestamp (default now; not negative), then the target (channel access, or DM recipients).
 * Returns the draft as it will be stored, without its id. Reads channels or users; writes nothing.
 */
const checkDraft = async (user: User, realm: Realm, data: DraftData): Promise<Omit<Draft, 'id'>> => {
  const content = normalizeMessageContent(data.content);

  const raw = data.timestamp ?? nowMs() / 1000;
  const timestamp = Math.round(raw * 1e6) / 1e6;
  if (timestamp < 0) throw new BadRequestError('Timestamp must not be negative.');
  if (timestamp > MAX_TIMESTAMP) throw new BadRequestError('Timestamp is too large.');

  let type: DraftType = '';
  let to: number[] = [];
  let topic = '';
  if (data.type === 'stream') {
    topic = normalizeTopic(data.topic, realm.limits.max_topic_length);
    if (data.to.length !== 1) throw new BadRequestError('Must specify exactly 1 channel ID for channel messages');
    await accessChannelById(user, data.to[0], 'Invalid channel ID');
    type = 'stream';
    to = [data.to[0]];
  } else if (data.type === 'private' && data.to.length > 0) {
    to = await checkDraftRecipients(user, data.to);
    type = 'private';
  }
  return { userId: user.id, type, to, topic, content, timestamp };
};

/** One of the caller's drafts (accessDraft, else "Draft does not exist"), refused without synchronization as every draft action. Reads only. */
export const readOwnDraft = forSynchronizingUsers(accessDraft);

/**
 * POST /drafts. Checks every draft first (any error creates none), refuses more than one
 * transaction can hold, then writes them all in one transaction and sends one `drafts` `add` event
 * with all of them to the owner's queues. Returns the new ids in submission order.
 */
export const checkCreateDrafts = forSynchronizingUsers(async (user: User, realm: Realm, drafts: DraftData[]): Promise<number[]> => {
  if (drafts.length > MAX_TRANSACTION_ITEMS) {
    throw new BadRequestError(`Too many drafts in one request (limit: ${MAX_TRANSACTION_ITEMS})`);
  }
  const checked: Omit<Draft, 'id'>[] = [];
  for (const data of drafts) checked.push(await checkDraft(user, realm, data));
  if (checked.length === 0) return [];
  const firstId = await allocateIds('draft', checked.length);
  const created: Draft[] = checked.map((d, i) => ({ id: firstId + i, ...d }));
  await draftsStore.createDrafts(created);
  await sendEvent(realm.id, { type: 'drafts', op: 'add', drafts: created.map(toApiDraft) }, { users: [user.id] });
  return created.map((d) => d.id);
});

/**
 * PATCH /drafts/{id}, after readOwnDraft. Checks the replacement as on creation, replaces every
 * field (the timestamp included) only if the draft still exists, then sends `drafts` `update`.
 */
export const checkEditDraft = async (user: User, realm: Realm, draft: Draft, data: DraftData): Promise<void> => {
  const replacement: Draft = { id: draft.id, ...(await checkDraft(user, realm, data)) };
  if (!(await draftsStore.replaceDraft(replacement))) throw new ResourceNotFoundError('Draft does not exist');
  await sendEvent(realm.id, { type: 'drafts', op: 'update', draft: toApiDraft(replacement) }, { users: [user.id] });
};

/**
 * DELETE /drafts/{id}. Deletes the caller's draft if it exists (a conditional delete, so of two
 * concurrent deletes only one succeeds), then sends `drafts` `remove`; otherwise 404.
 */
export const doDeleteDraft = forSynchronizingUsers(async (user: User, draftId: number): Promise<void> => {
  if (!(await draftsStore.deleteDraft(user.id, draftId))) throw new ResourceNotFoundError('Draft does not exist');
  await sendEvent(user.realmId, { type: 'drafts', op: 'remove', draft_id: draftId }, { users: [user.id] });
});

/** GET /drafts: every draft of the caller, least recently edited first (as upstream orders them). */
export const listDrafts = forSynchronizingUsers(async (user: User): Promise<ApiDraft[]> =>
  (await draftsStore.listDraftsOfUser(user.id)).sort(byEditTime).map(toApiDraft),
);
