// Server-side drafts: validation as upstream's DraftData + further_validated_draft_dict, and the
// create / edit / delete operations with their `drafts` events, which go to the owner's queues only.
import { MAX_TIMESTAMP, nowMs } from '../clock';
import { BadRequestError, ResourceNotFoundError } from '../errors';
import { sendEvent } from '../events/send';
import { MESSAGES } from '../http/messages';
import { float, int, list, literal, nullable, object, str, union, type Infer, type Validator } from '../http/validators';
import { byEditTime, toApiDraft, type ApiDraft, type Draft, type DraftType } from '../models/draft';
import type { Realm } from '../models/realm';
import { isGuest, type User } from '../models/user';
import * as channelsStore from '../store/channels';
import { allocateIds } from '../store/common';
import * as draftsStore from '../store/drafts';
import * as usersStore from '../store/users';

/** Upstream's MAX_MESSAGE_LENGTH: longer content is truncated, as for messages. */
export const MAX_MESSAGE_LENGTH = 10000;

// Python's str.strip() whitespace (str.isspace), which upstream's pydantic models and
// normalize_body use: JavaScript's trim() differs at the edges (\x1c-\x1f, \x85, \ufeff).
const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const LEADING_SPACE = new RegExp(`^[${PY_SPACE}]+`);
const TRAILING_SPACE = new RegExp(`[${PY_SPACE}]+$`);
const pyStrip = (s: string): string => s.replace(LEADING_SPACE, '').replace(TRAILING_SPACE, '');

/** Upstream's truncate_content, counting code points as Python does. */
const truncate = (text: string, maxLength: number, marker: string): string => {
  const chars = Array.from(text);
  if (chars.length <= maxLength) return text;
  return chars.slice(0, maxLength - Array.from(marker).length).join('') + marker;
};

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

/** Every draft endpoint refuses users who turned synchronization off, before reading parameters. */
export const requireDraftsSynchronization = (user: User): void => {
  if (!user.enableDraftsSynchronization) throw new BadRequestError('User has disabled synchronizing drafts.');
};

/** Upstream's access_stream_by_id: an active channel the user may read; anything else looks missing. */
const checkDraftChannel = async (user: User, channelId: number): Promise<void> => {
  const [channel, subscription] = await Promise.all([
    channelsStore.getChannel(user.realmId, channelId),
    channelsStore.getSubscription(user.id, channelId),
  ]);
  const visible =
    channel !== undefined &&
    !channel.isArchived &&
    (channel.isWebPublic || (!channel.inviteOnly && !isGuest(user)) || subscription?.active === true);
  if (!visible) throw new BadRequestError('Invalid channel ID');
};

/** Direct-message targets must be users of the organization; `to` becomes the other participants. */
const checkDraftRecipients = async (user: User, to: number[]): Promise<number[]> => {
  const ids = [...new Set(to)].sort((a, b) => a - b);
  const found = new Map((await usersStore.getMany(user.realmId, ids)).map((u) => [u.id, u]));
  for (const id of ids) if (!found.has(id)) throw new BadRequestError(`Invalid user ID ${id}`);
  for (const id of ids) {
    const target = found.get(id)!;
    if (!target.isActive) throw new BadRequestError(`'${target.email}' is no longer using Zulip.`);
  }
  const others = ids.filter((id) => id !== user.id);
  return others.length > 0 ? others : [user.id];
};

/**
 * Upstream's further validation of one draft, in its order: content (null bytes; truncation),
 * timestamp (default now; not negative), then the target (channel access, or DM recipients).
 * Returns the draft as it will be stored, without its id. Reads channels or users; writes nothing.
 */
export const checkDraft = async (user: User, realm: Realm, data: DraftData): Promise<Omit<Draft, 'id'>> => {
  const content = data.content.replace(TRAILING_SPACE, '').replace(/^\n+/, '');
  if (content.length === 0) throw new BadRequestError('Message must not be empty');
  if (content.includes('\0')) throw new BadRequestError('Message must not contain null bytes');

  const raw = data.timestamp ?? nowMs() / 1000;
  const timestamp = Math.round(raw * 1e6) / 1e6;
  if (timestamp < 0) throw new BadRequestError('Timestamp must not be negative.');
  if (timestamp > MAX_TIMESTAMP) throw new BadRequestError('Timestamp is too large.');

  let type: DraftType = '';
  let to: number[] = [];
  let topic = '';
  if (data.type === 'stream') {
    topic = truncate(data.topic, realm.limits.max_topic_length, '...');
    if (topic.includes('\0')) throw new BadRequestError('Topic must not contain null bytes');
    if (data.to.length !== 1) throw new BadRequestError('Must specify exactly 1 channel ID for channel messages');
    await checkDraftChannel(user, data.to[0]);
    type = 'stream';
    to = [data.to[0]];
  } else if (data.type === 'private' && data.to.length > 0) {
    to = await checkDraftRecipients(user, data.to);
    type = 'private';
  }
  return { userId: user.id, type, to, topic, content: truncate(content, MAX_MESSAGE_LENGTH, '\n[message truncated]'), timestamp };
};

/** Loads a draft of `user`; another user's draft and a missing one are the same 404. */
export const accessDraft = async (user: User, draftId: number): Promise<Draft> => {
  const draft = await draftsStore.getDraft(user.id, draftId);
  if (!draft) throw new ResourceNotFoundError('Draft does not exist');
  return draft;
};

/**
 * POST /drafts. Checks every draft first (any error creates none), refuses more than one
 * transaction can hold, then writes them all in one transaction and sends one `drafts` `add` event
 * with all of them to the owner's queues. Returns the new ids in submission order.
 */
export const checkCreateDrafts = async (user: User, realm: Realm, drafts: DraftData[]): Promise<number[]> => {
  if (drafts.length > draftsStore.MAX_DRAFTS_PER_WRITE) {
    throw new BadRequestError(`Too many drafts in one request (limit: ${draftsStore.MAX_DRAFTS_PER_WRITE})`);
  }
  const checked: Omit<Draft, 'id'>[] = [];
  for (const data of drafts) checked.push(await checkDraft(user, realm, data));
  if (checked.length === 0) return [];
  const firstId = await allocateIds('draft', checked.length);
  const created: Draft[] = checked.map((d, i) => ({ id: firstId + i, ...d }));
  await draftsStore.createDrafts(created);
  await sendEvent(realm.id, { type: 'drafts', op: 'add', drafts: created.map(toApiDraft) }, { users: [user.id] });
  return created.map((d) => d.id);
};

/**
 * PATCH /drafts/{id}, after accessDraft. Checks the replacement as on creation, replaces every
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
export const doDeleteDraft = async (user: User, draftId: number): Promise<void> => {
  if (!(await draftsStore.deleteDraft(user.id, draftId))) throw new ResourceNotFoundError('Draft does not exist');
  await sendEvent(user.realmId, { type: 'drafts', op: 'remove', draft_id: draftId }, { users: [user.id] });
};

/** GET /drafts: every draft of the caller, least recently edited first (as upstream orders them). */
export const listDrafts = async (user: User): Promise<ApiDraft[]> =>
  (await draftsStore.listDraftsOfUser(user.id)).sort(byEditTime).map(toApiDraft);
