// Every key template of both tables, in one place. Numbers inside sort keys are zero-padded so that
// string order is numeric order. Access patterns (see docs/data-model.md):
//
// | pattern                     | table/index | pk                      | sk / condition              |
// |-----------------------------|-------------|-------------------------|-----------------------------|
// | realm by id                 | main        | REALM#<rid>             | = REALM                     |
// | realm by subdomain          | main.gsi1   | REALMNAME#<string_id>   | = REALM                     |
// | subdomain lock              | main        | SUBDOMAIN#<string_id>   | = SUBDOMAIN                 |
// | realm creation link         | main        | REALMCREATIONKEY#<key>  | = REALMCREATIONKEY          |
// | password reset link (TTL)   | main        | PASSWORDRESET#<key>     | = PASSWORDRESET             |
// | user by id                  | main        | REALM#<rid>             | = USER#<uid>                |
// | users of a realm            | main        | REALM#<rid>             | begins_with USER#           |
// | user by API key (auth)      | main.gsi1   | APIKEY#<key>            | = USER                      |
// | users by email (all realms) | main.gsi2   | EMAIL#<lowercased>      | begins_with REALM#          |
// | users by full name          | main.gsi3   | USERNAME#<rid>#<lowercased> | USER#<uid>              |
// | email lock of a user        | main        | REALM#<rid>             | = EMAILLOCK#<lowercased>    |
// | default channels of a realm | main        | REALM#<rid>             | = DEFAULTCHANNELS           |
// | id counter of an entity     | main        | COUNTER#<entity>        | = COUNTER                   |
// | drafts of a user            | main        | USER#<uid>              | begins_with DRAFT#          |
// | newest drafts of a user     | main.gsi1   | DRAFTS#<uid>            | <edit time µs>#<id>, desc   |
// | profile fields of a realm   | main        | REALM#<rid>             | begins_with FIELD#          |
// | profile field list version  | main        | REALM#<rid>             | = FIELDVERSION              |
// | profile values of a user    | main        | USER#<uid>              | = PROFILE#<fid> (batch get) |
// | values of a profile field   | main.gsi2   | FIELDVALUES#<rid>#<fid> | <uid>                       |
// | allowed email domains       | main        | REALM#<rid>             | begins_with DOMAIN# / = DOMAIN#<domain> |
// | channels of a realm         | main        | REALM#<rid>             | begins_with CHANNEL#        |
// | channel name lock           | main        | REALM#<rid>             | = CHANNELNAME#<lowercased>  |
// | user groups of a realm      | main        | REALM#<rid>             | begins_with GROUP#          |
// | group name lock             | main        | REALM#<rid>             | = GROUPNAME#<name>          |
// | linkifiers of a realm       | main        | REALM#<rid>             | begins_with LINKIFIER#      |
// | linkifier list version      | main        | REALM#<rid>             | = LINKIFIERVERSION          |
// | code playgrounds of a realm | main        | REALM#<rid>             | begins_with PLAYGROUND#, = PLAYGROUNDNAME#<sha256 of language and name>, = PLAYGROUNDCOUNT |
// | data exports of a realm     | main        | REALM#<rid>             | begins_with EXPORT#, = EXPORT#<id> |
// | a user's rows in an id range | main       | USER#<uid>              | between UM#<from> and UM#<to> (the export job) |
// | custom emoji of a realm     | main        | REALM#<rid>             | begins_with EMOJI#          |
// | custom emoji list version   | main        | REALM#<rid>             | = EMOJIVERSION              |
// | invitation links of a realm | main        | REALM#<rid>             | begins_with INVITE#         |
// | email invitations of a realm | main      | REALM#<rid>             | begins_with EMAILINVITE#    |
// | invitation by link key      | main.gsi1   | CONFIRMATION#<key>      | = INVITE (either kind)      |
// | invitation emails of a day  | main        | REALM#<rid>             | = INVITESSENT#<YYYY-MM-DD>  |
// | scheduled msgs of a user    | main        | USER#<uid>              | begins_with SCHED#          |
// | channel folders of a realm  | main        | REALM#<rid>             | begins_with FOLDER#, = FOLDERNAME#<sha256 of lowercased name>, = FOLDERCOUNT |
// | subscriptions of a user     | main        | USER#<uid>              | begins_with SUB#            |
// | subscribers of a channel    | main.gsi1   | CHANNELSUBS#<cid>       | (all; active subs of active users) |
// | message by id               | main        | MSG#<rid>#<mid>         | = MSG (batch get)           |
// | who holds a row of a message| main        | MSG#<rid>#<mid>         | begins_with RCPT#           |
// | end of a batched topic move | main        | MSG#<rid>#<mid>         | = MOVED#<edit timestamp> (TTL) |
// | submessages of a message    | main        | MSG#<rid>#<mid>         | begins_with SUBMSG#         |
// | message id counter of realm | main        | COUNTER#message#<rid>   | = COUNTER                   |
// | messages of a channel       | main.gsi1   | CHANNELMSGS#<cid>       | <mid>                       |
// | messages of a topic         | main.gsi2   | TOPICMSGS#<cid>#<lower> | <mid>                       |
// | messages of a DM conversation | main.gsi1 | DMMSGS#<rid>#<ids asc>  | <mid>                       |
// | topics of a channel         | main        | CHANNEL#<cid>           | begins_with TOPIC#          |
// | received topics (protected) | main        | USER#<uid>              | begins_with UTOPIC#<cid>#   |
// | a user's topic policy       | main        | USER#<uid>              | = USERTOPIC#<cid>#<lower>   |
// | topic policies of a user    | main        | USER#<uid>              | begins_with USERTOPIC#      |
// | policies of a topic         | main.gsi1   | TOPICPOLICIES#<cid>#<lower> | USER#<uid>              |
// | users a user muted          | main        | USER#<uid>              | begins_with MUTEDUSER# / = MUTEDUSER#<muted uid> |
// | a user's rows of a conversation | main.gsi3 | UMCONV#<uid>#C<cid> / UMCONV#<uid>#D | <mid>      |
// | mentioned messages of a user| main.gsi4   | MENTIONED#<uid>         | <mid>                       |
// | users with stream push on   | main.gsi4   | STREAMPUSH#<rid>        | <uid>                       |
// | newest message of a user    | main        | USER#<uid>              | begins_with UM#, desc, 1    |
// | unread messages of a user   | main.gsi1   | UNREAD#<uid>            | desc, at most 50,000        |
// | starred messages of a user  | main.gsi2   | STARRED#<uid>           | asc, at most 10,000         |
// | DM conversations of a user  | main        | USER#<uid>              | begins_with DMCONV#         |
// | snippets / nav views        | main        | USER#<uid>              | begins_with SNIPPET# / NAVVIEW# |
// | snippet count of a user     | main        | USER#<uid>              | = SNIPPETCOUNT              |
// | a navigation view / its name | main       | USER#<uid>              | = NAVVIEW#<sha256 of fragment> / = NAVNAME#<sha256 of name> |
// | nav view count of a user    | main        | USER#<uid>              | = NAVVIEWCOUNT              |
// | alert words / onboarding    | main        | USER#<uid>              | = ALERTWORDS / = ONBOARDING |
// | alert words of a realm      | main        | REALM#<rid>             | = ALERTWORDS                |
// | profile values of a realm   | main.gsi1   | PROFILEVALUES#<rid>     | (all: register's user list) |
// | presence row + sequence     | main        | REALM#<rid>             | = PRESENCE#<uid>, = PRESENCESEQ (consistent batch get) |
// | presence changed since id   | main.gsi1   | PRESENCE#<rid>          | > <last_update_id>          |
// | presence connected since    | main.gsi2   | PRESENCECONN#<rid>      | >= <last_connected_time>    |
// | password hash of a user     | main        | USER#<uid>              | = PASSWORD                  |
// | attempts of a rate limit    | main        | RATELIMIT#<domain>#<entity> | = RATELIMIT (TTL)       |
// | client devices of a user   | main        | USER#<uid>              | begins_with DEVICE#         |
// | statuses of a realm        | main        | REALM#<rid>             | begins_with STATUS#         |
// | attachment + its claims    | main        | ATTACHMENT#<path id>    | = ATTACHMENT, begins_with CLAIM# (one query) |
// | uploads of a user           | main        | USER#<uid>              | begins_with UPLOAD#, = UPLOAD#<id> |
// | upload space of a realm     | main        | REALM#<rid>             | = UPLOADSPACE               |
// | bot storage of a bot        | main        | USER#<uid>              | begins_with BOTSTORAGE# (sha256 of key), = BOTSTORAGESIZE |
// | web session by cookie       | main        | SESSION#<sha256 of token> | = SESSION (TTL)           |
// | web sessions of a user      | main.gsi1   | SESSIONS#<uid>          | <sha256 of token>           |
// | login hand-off to a subdomain | main      | LOGINHANDOFF#<sha256 of token> | = LOGINHANDOFF (TTL)  |

import { createHash } from 'node:crypto';

export const pad = (n: number, width = 12): string => String(n).padStart(width, '0');

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** DynamoDB's limits on a key attribute's value, in bytes of UTF-8. */
const MAX_PARTITION_KEY_BYTES = 2048;
const MAX_SORT_KEY_BYTES = 1024;

/** What request text a key holds, for the error that says it does not fit. */
type KeyText =
  | 'realm creation key'
  | 'email'
  | 'subdomain'
  | 'API key'
  | 'topic'
  | 'channel name'
  | 'group name'
  | 'username'
  | 'upload path'
  | 'queue id'
  | 'domain'
  | 'confirmation key'
  | 'archive';

/**
 * Request text made a key longer than DynamoDB accepts (it refuses the request with a validation
 * error). No stored item has such a key: a lookup finds nothing (lookupKey); a write means the
 * text skipped the parameter rule that bounds it, a bug.
 */
export class KeyTooLongError extends Error {
  constructor(readonly part: KeyText) {
    super(`${part} too long for a DynamoDB key`);
    this.name = 'KeyTooLongError';
  }
}

/**
 * The one check of key sizes, run by every template below that embeds request text: each
 * partition key attribute (`pk`, `gsiNpk`) within 2048 bytes, each sort key attribute or value a
 * condition compares with one (`sk`, `gsiNsk`, a prefix) within 1024. Bytes, not characters: an
 * emoji is 4 of them, and lowercasing may change the count.
 */
const fitted = <K extends Record<string, string>>(part: KeyText, key: K): K => {
  for (const [name, value] of Object.entries(key)) {
    const limit = name.endsWith('pk') ? MAX_PARTITION_KEY_BYTES : MAX_SORT_KEY_BYTES;
    if (Buffer.byteLength(value, 'utf8') > limit) throw new KeyTooLongError(part);
  }
  return key;
};

/**
 * The key of a lookup by request text, or undefined when the text is too long for any key: the
 * lookup then finds nothing without asking DynamoDB, and its caller answers as for anything else
 * that does not exist ("No such user", "Bad event queue ID", "File not found.").
 */
export const lookupKey = <K>(build: () => K): K | undefined => {
  try {
    return build();
  } catch (error) {
    if (error instanceof KeyTooLongError) return undefined;
    throw error;
  }
};

export type Key = { pk: string; sk: string };

export const keys = {
  realm: (realmId: number): Key => ({ pk: `REALM#${realmId}`, sk: 'REALM' }),
  /** A realm creation link's key (npm run create-realm-link), until it is used or expires. */
  realmCreationKey: (creationKey: string) =>
    fitted('realm creation key', { pk: `REALMCREATIONKEY#${creationKey}`, sk: 'REALMCREATIONKEY' }),
  /** A password reset link's key (POST /accounts/password/reset/), until it is used or expires. */
  passwordResetKey: (resetKey: string) => fitted('confirmation key', { pk: `PASSWORDRESET#${resetKey}`, sk: 'PASSWORDRESET' }),
  /** The lock that keeps a subdomain to one organization (written with the organization). */
  subdomainLock: (stringId: string) => fitted('subdomain', { pk: `SUBDOMAIN#${stringId}`, sk: 'SUBDOMAIN' }),
  realmByName: (stringId: string) => fitted('subdomain', { gsi1pk: `REALMNAME#${stringId}`, gsi1sk: 'REALM' }),

  user: (realmId: number, userId: number): Key => ({ pk: `REALM#${realmId}`, sk: `USER#${userId}` }),
  usersOfRealm: (realmId: number) => ({ pk: `REALM#${realmId}`, skPrefix: 'USER#' }),
  userByApiKey: (apiKey: string) => fitted('API key', { gsi1pk: `APIKEY#${apiKey}`, gsi1sk: 'USER' }),
  userByEmail: (email: string, realmId: number) => fitted('email', { gsi2pk: `EMAIL#${email.toLowerCase()}`, gsi2sk: `REALM#${realmId}` }),
  usersByEmail: (email: string) => fitted('email', { gsi2pk: `EMAIL#${email.toLowerCase()}`, gsi2skPrefix: 'REALM#' }),
  /** The users of one organization with a full name, compared case-insensitively (mentions name users so). */
  userByName: (realmId: number, fullName: string, userId: number) =>
    fitted('username', { gsi3pk: `USERNAME#${realmId}#${fullName.toLowerCase()}`, gsi3sk: `USER#${userId}` }),
  /**
   * The users of one organization whose enable_stream_push_notifications is on (a sparse index:
   * only they carry it), so that the push job finds who wants channel messages pushed without
   * reading every subscriber's settings.
   */
  userWithStreamPush: (realmId: number, userId: number) => ({ gsi4pk: `STREAMPUSH#${realmId}`, gsi4sk: pad(userId) }),
  usersWithStreamPush: (realmId: number) => ({ gsi4pk: `STREAMPUSH#${realmId}` }),
  /**
   * The lock that keeps an email unique within an organization (upstream's unique delivery email
   * per realm): created with the user in one transaction, never removed (emails do not change).
   */
  userEmailLock: (realmId: number, email: string) => fitted('email', { pk: `REALM#${realmId}`, sk: `EMAILLOCK#${email.toLowerCase()}` }),

  counter: (entity: string): Key => ({ pk: `COUNTER#${entity}`, sk: 'COUNTER' }),
  /** An import's checkpoint: one per archive and subdomain (lib/store/imports.ts). */
  importCheckpoint: (bucket: string, key: string, subdomain: string): Key =>
    fitted('archive', { pk: `IMPORT#${subdomain}#${bucket}/${key}`, sk: 'IMPORT' }),
} as const;

// Layout of the other entities written by the development seed (scripts/seed.ts). Realm-wide
// objects live in the realm partition, a user's own objects in the user's partition.
export const entityKeys = {
  channel: (realmId: number, channelId: number): Key => ({ pk: `REALM#${realmId}`, sk: `CHANNEL#${pad(channelId)}` }),
  channelFolder: (realmId: number, folderId: number): Key => ({ pk: `REALM#${realmId}`, sk: `FOLDER#${pad(folderId)}` }),
  userGroup: (realmId: number, groupId: number): Key => ({ pk: `REALM#${realmId}`, sk: `GROUP#${pad(groupId)}` }),
  customProfileField: (realmId: number, fieldId: number): Key => ({ pk: `REALM#${realmId}`, sk: `FIELD#${pad(fieldId)}` }),
  linkifier: (realmId: number, linkifierId: number): Key => ({ pk: `REALM#${realmId}`, sk: `LINKIFIER#${pad(linkifierId)}` }),
  multiuseInvite: (realmId: number, inviteId: number): Key => ({ pk: `REALM#${realmId}`, sk: `INVITE#${pad(inviteId)}` }),
  emailInvite: (realmId: number, inviteId: number): Key => ({ pk: `REALM#${realmId}`, sk: `EMAILINVITE#${pad(inviteId)}` }),
  /** The gsi1 keys of an invitation (either kind) by the key of its /join/<key>/ link. */
  inviteByConfirmationKey: (confirmationKey: string) =>
    fitted('confirmation key', { gsi1pk: `CONFIRMATION#${confirmationKey}`, gsi1sk: 'INVITE' }),
  /** A message: its own partition (docs/data-model.md, "Messages: keys, indexes, …"). */
  message: (realmId: number, messageId: number): Key => ({ pk: `MSG#${realmId}#${messageId}`, sk: 'MSG' }),
  /**
   * Who holds a row of a message, in the message's own partition: `RCPT#<part>` items written by
   * the send (the recipients, MESSAGE_RECIPIENTS_PER_ITEM each) and `RCPT#H`, the users who got a
   * row later (historical rows). Read by edits and deletes, never by fetches.
   */
  messageRecipients: (realmId: number, messageId: number, part: string): Key => ({ pk: `MSG#${realmId}#${messageId}`, sk: `RCPT#${part}` }),
  recipientsOfMessage: (realmId: number, messageId: number) => ({ pk: `MSG#${realmId}#${messageId}`, skPrefix: 'RCPT#' }),
  /**
   * The marker of a move of this message's topic done in batches that has finished (its notices
   * sent), by the edit's timestamp: a retried job run finds it (TTL).
   */
  messageMoveFinished: (realmId: number, messageId: number, editTimestamp: number): Key => ({
    pk: `MSG#${realmId}#${messageId}`,
    sk: `MOVED#${editTimestamp}`,
  }),
  /** A submessage of a message after its widget (its poll votes, checked tasks), in the message's own partition. */
  submessage: (realmId: number, messageId: number, submessageId: number): Key => ({
    pk: `MSG#${realmId}#${messageId}`,
    sk: `SUBMSG#${pad(submessageId)}`,
  }),
  submessagesOfMessage: (realmId: number, messageId: number) => ({ pk: `MSG#${realmId}#${messageId}`, skPrefix: 'SUBMSG#' }),
  /** The organization's message id counter (ids rise within an organization). */
  messageCounter: (realmId: number): Key => keys.counter(`message#${realmId}`),
  /**
   * A topic of a channel: its display name (as last sent) and newest message id, kept by every
   * send; the topics endpoint reads the channel's partition. `topic` is compared lowercased.
   */
  topicSummary: (channelId: number, topic: string): Key =>
    fitted('topic', { pk: `CHANNEL#${channelId}`, sk: `TOPIC#${topic.toLowerCase()}` }),
  topicsOfChannel: (channelId: number) => ({ pk: `CHANNEL#${channelId}`, skPrefix: 'TOPIC#' }),
  /**
   * A topic of a channel with protected history as one user received it: the name as last
   * received and the newest received message id, kept by every send to that user; the topics
   * endpoint reads the user's own summaries of the channel.
   */
  receivedTopic: (userId: number, channelId: number, topic: string): Key =>
    fitted('topic', { pk: `USER#${userId}`, sk: `UTOPIC#${channelId}#${topic.toLowerCase()}` }),
  receivedTopicsOfChannel: (userId: number, channelId: number) => ({ pk: `USER#${userId}`, skPrefix: `UTOPIC#${channelId}#` }),
  /**
   * A user's visibility policy for a topic (muted, unmuted, followed; issue 16 item 4): in the
   * user's partition, so that register reads all of them with one query. `topic` is compared
   * lowercased, as upstream's topic_name__iexact.
   */
  userTopic: (userId: number, channelId: number, topic: string): Key =>
    fitted('topic', { pk: `USER#${userId}`, sk: `USERTOPIC#${pad(channelId)}#${topic.toLowerCase()}` }),
  userTopicsOfUser: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'USERTOPIC#' }),
  /** Every user's policy for one topic of a channel (gsi1), which a move of the whole topic carries along. */
  policiesOfTopic: (channelId: number, topic: string) => fitted('topic', { gsi1pk: `TOPICPOLICIES#${channelId}#${topic.toLowerCase()}` }),
  /**
   * A user's mute of another user: in the muter's partition, so that register and the
   * `muted_users` event read the muter's list with one query. Who muted a user is on that user's
   * own item (`mutedBy`), not here.
   */
  mutedUser: (userId: number, mutedUserId: number): Key => ({ pk: `USER#${userId}`, sk: `MUTEDUSER#${pad(mutedUserId)}` }),
  mutedUsersOfUser: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'MUTEDUSER#' }),
  presence: (realmId: number, userId: number): Key => ({ pk: `REALM#${realmId}`, sk: `PRESENCE#${pad(userId)}` }),
  presenceSequence: (realmId: number): Key => ({ pk: `REALM#${realmId}`, sk: 'PRESENCESEQ' }),

  subscription: (userId: number, channelId: number): Key => ({ pk: `USER#${userId}`, sk: `SUB#${pad(channelId)}` }),
  userMessage: (userId: number, messageId: number): Key => ({ pk: `USER#${userId}`, sk: `UM#${pad(messageId)}` }),
  draft: (userId: number, draftId: number): Key => ({ pk: `USER#${userId}`, sk: `DRAFT#${pad(draftId)}` }),
  profileValue: (userId: number, fieldId: number): Key => ({ pk: `USER#${userId}`, sk: `PROFILE#${pad(fieldId)}` }),
  scheduledMessage: (userId: number, scheduledId: number): Key => ({ pk: `USER#${userId}`, sk: `SCHED#${pad(scheduledId)}` }),
  /**
   * A send's client-side identity (its queue_id and local_id), naming the message it stored, so
   * that a retried send stores one message (lib/store/messages.ts writeNewMessage).
   */
  sentLocalId: (userId: number, queueId: string, localId: string): Key =>
    fitted('queue id', { pk: `USER#${userId}`, sk: `SENTLOCAL#${queueId.length}#${queueId}#${localId}` }),
  alertWords: (userId: number): Key => ({ pk: `USER#${userId}`, sk: 'ALERTWORDS' }),
  realmAlertWords: (realmId: number): Key => ({ pk: `REALM#${realmId}`, sk: 'ALERTWORDS' }),
  onboardingSteps: (userId: number): Key => ({ pk: `USER#${userId}`, sk: 'ONBOARDING' }),
  savedSnippet: (userId: number, snippetId: number): Key => ({ pk: `USER#${userId}`, sk: `SNIPPET#${pad(snippetId)}` }),
  /** How many saved snippets the user keeps (`count`), changed in the transaction of each create and delete. */
  savedSnippetCount: (userId: number): Key => ({ pk: `USER#${userId}`, sk: 'SNIPPETCOUNT' }),
  /** A navigation view, named by the sha256 of its fragment (a URL hash of any length fits). */
  navigationView: (userId: number, fragment: string): Key => ({ pk: `USER#${userId}`, sk: `NAVVIEW#${sha256(fragment)}` }),
  /** The claim of a custom view's name (`fragment`: whose it is), so that two views of one user never share a name. */
  navigationViewName: (userId: number, name: string): Key => ({ pk: `USER#${userId}`, sk: `NAVNAME#${sha256(name)}` }),
  /** How many navigation views the user keeps (`count`), changed in the transaction of each create and delete. */
  navigationViewCount: (userId: number): Key => ({ pk: `USER#${userId}`, sk: 'NAVVIEWCOUNT' }),

  // Organization objects (issue 7): prefixes of the realm partition, and the items that make
  // concurrent writes safe (a name lock per group name, one version item for the linkifier list).
  channelsOfRealm: (realmId: number) => ({ pk: `REALM#${realmId}`, skPrefix: 'CHANNEL#' }),
  /** A channel name's lock (names are unique in an organization ignoring case): `realmId, channelId`. */
  channelName: (realmId: number, name: string): Key =>
    fitted('channel name', { pk: `REALM#${realmId}`, sk: `CHANNELNAME#${name.toLowerCase()}` }),
  groupsOfRealm: (realmId: number) => ({ pk: `REALM#${realmId}`, skPrefix: 'GROUP#' }),
  groupName: (realmId: number, name: string): Key => fitted('group name', { pk: `REALM#${realmId}`, sk: `GROUPNAME#${name}` }),
  linkifiersOfRealm: (realmId: number) => ({ pk: `REALM#${realmId}`, skPrefix: 'LINKIFIER#' }),
  linkifierVersion: (realmId: number): Key => ({ pk: `REALM#${realmId}`, sk: 'LINKIFIERVERSION' }),
  /** A data export of the organization (docs/data-model.md, "Data exports"). */
  realmExport: (realmId: number, exportId: number): Key => ({ pk: `REALM#${realmId}`, sk: `EXPORT#${pad(exportId)}` }),
  realmExportsOfRealm: (realmId: number) => ({ pk: `REALM#${realmId}`, skPrefix: 'EXPORT#' }),
  playground: (realmId: number, playgroundId: number): Key => ({ pk: `REALM#${realmId}`, sk: `PLAYGROUND#${pad(playgroundId)}` }),
  playgroundsOfRealm: (realmId: number) => ({ pk: `REALM#${realmId}`, skPrefix: 'PLAYGROUND#' }),
  /** A playground's claim of its language and name, which are unique together in an organization. */
  playgroundName: (realmId: number, language: string, name: string): Key => ({
    pk: `REALM#${realmId}`,
    sk: `PLAYGROUNDNAME#${sha256(`${language}\u0000${name}`)}`,
  }),
  playgroundCount: (realmId: number): Key => ({ pk: `REALM#${realmId}`, sk: 'PLAYGROUNDCOUNT' }),
  /** A channel folder's claim of its name, unique in an organization in any case. */
  channelFolderName: (realmId: number, name: string): Key => ({ pk: `REALM#${realmId}`, sk: `FOLDERNAME#${sha256(name.toLowerCase())}` }),
  channelFolderCount: (realmId: number): Key => ({ pk: `REALM#${realmId}`, sk: 'FOLDERCOUNT' }),
  customProfileFieldVersion: (realmId: number): Key => ({ pk: `REALM#${realmId}`, sk: 'FIELDVERSION' }),
  /** An allowed email domain (lowercased by its validation; at most 255 characters, as upstream checks). */
  realmDomain: (realmId: number, domain: string): Key => fitted('domain', { pk: `REALM#${realmId}`, sk: `DOMAIN#${domain}` }),
  realmDomainsOfRealm: (realmId: number) => ({ pk: `REALM#${realmId}`, skPrefix: 'DOMAIN#' }),
  valuesOfProfileField: (realmId: number, fieldId: number) => ({ gsi2pk: `FIELDVALUES#${realmId}#${fieldId}` }),
  /** Custom emoji (issue 24): one item per emoji, deactivated ones kept, and the list's version item. */
  realmEmoji: (realmId: number, emojiId: number): Key => ({ pk: `REALM#${realmId}`, sk: `EMOJI#${pad(emojiId)}` }),
  realmEmojiOfRealm: (realmId: number) => ({ pk: `REALM#${realmId}`, skPrefix: 'EMOJI#' }),
  realmEmojiVersion: (realmId: number): Key => ({ pk: `REALM#${realmId}`, sk: 'EMOJIVERSION' }),
  invitesOfRealm: (realmId: number) => ({ pk: `REALM#${realmId}`, skPrefix: 'INVITE#' }),
  emailInvitesOfRealm: (realmId: number) => ({ pk: `REALM#${realmId}`, skPrefix: 'EMAILINVITE#' }),
  /** Invitation emails an organization sent on one UTC day (`YYYY-MM-DD`): `sent`, with a TTL. */
  invitesSentOnDay: (realmId: number, day: string): Key => ({ pk: `REALM#${realmId}`, sk: `INVITESSENT#${day}` }),
  scheduledMessagesOfUser: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'SCHED#' }),

  // Register snapshot (issue 8): prefixes of the realm and user partitions, and a user's direct
  // message conversations (one item per conversation, kept at its newest message id).
  foldersOfRealm: (realmId: number) => ({ pk: `REALM#${realmId}`, skPrefix: 'FOLDER#' }),
  subscriptionsOfUser: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'SUB#' }),
  userMessagesOfUser: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'UM#' }),
  savedSnippetsOfUser: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'SNIPPET#' }),
  navigationViewsOfUser: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'NAVVIEW#' }),
  /** `otherUserIds`: the participants other than the user, ascending; [] for the self-conversation. */
  dmConversation: (userId: number, otherUserIds: number[]): Key => ({ pk: `USER#${userId}`, sk: `DMCONV#${otherUserIds.join(',')}` }),
  dmConversationsOfUser: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'DMCONV#' }),
  /** Index partitions to query (the attribute pairs below, without a sort key). */
  subscribersOfChannel: (channelId: number) => ({ gsi1pk: `CHANNELSUBS#${channelId}` }),
  unreadOfUser: (userId: number) => ({ gsi1pk: `UNREAD#${userId}` }),
  starredOfUser: (userId: number) => ({ gsi2pk: `STARRED#${userId}` }),
  profileValuesOfRealm: (realmId: number) => ({ gsi1pk: `PROFILEVALUES#${realmId}` }),
  /** Messages of a channel / of a topic / of a direct-message conversation, by id. */
  messagesOfChannel: (channelId: number) => ({ gsi1pk: `CHANNELMSGS#${channelId}` }),
  messagesOfTopic: (channelId: number, topic: string) => fitted('topic', { gsi2pk: `TOPICMSGS#${channelId}#${topic.toLowerCase()}` }),
  /** `participantIds`: every participant, the sender included (any order; sorted here). */
  messagesOfDmConversation: (realmId: number, participantIds: number[]) => ({
    gsi1pk: `DMMSGS#${realmId}#${[...participantIds].sort((a, b) => a - b).join(',')}`,
  }),
  /** A user's rows of one conversation: a channel (`channelId`), or all of its direct messages (null). */
  userMessagesOfConversation: (userId: number, channelId: number | null) => ({
    gsi3pk: channelId === null ? `UMCONV#${userId}#D` : `UMCONV#${userId}#C${channelId}`,
  }),
  mentionedOfUser: (userId: number) => ({ gsi4pk: `MENTIONED#${userId}` }),

  // Secondary access paths (attribute pairs to spread into an item).
  /** Subscribers of a channel: gsi1, CHANNELSUBS#<cid>, USER#<uid>. */
  channelSubscriber: (channelId: number, userId: number) => ({ gsi1pk: `CHANNELSUBS#${channelId}`, gsi1sk: `USER#${pad(userId)}` }),
  /** A user's unread messages, newest last: gsi1, UNREAD#<uid>, <msgid> (present only while unread). */
  unreadMessage: (userId: number, messageId: number) => ({ gsi1pk: `UNREAD#${userId}`, gsi1sk: pad(messageId) }),
  /** A user's starred messages: gsi2, STARRED#<uid>, <msgid> (present only while starred). */
  starredMessage: (userId: number, messageId: number) => ({ gsi2pk: `STARRED#${userId}`, gsi2sk: pad(messageId) }),
  /** A channel message in its channel: gsi1, CHANNELMSGS#<cid>, <mid>. */
  channelMessage: (channelId: number, messageId: number) => ({ gsi1pk: `CHANNELMSGS#${channelId}`, gsi1sk: pad(messageId) }),
  /** A channel message in its topic: gsi2, TOPICMSGS#<cid>#<lowercased topic>, <mid>. */
  topicMessage: (channelId: number, topic: string, messageId: number) =>
    fitted('topic', { gsi2pk: `TOPICMSGS#${channelId}#${topic.toLowerCase()}`, gsi2sk: pad(messageId) }),
  /** A direct message in its conversation: gsi1, DMMSGS#<rid>#<participant ids ascending>, <mid>. */
  dmMessage: (realmId: number, participantIds: number[], messageId: number) => ({
    gsi1pk: `DMMSGS#${realmId}#${[...participantIds].sort((a, b) => a - b).join(',')}`,
    gsi1sk: pad(messageId),
  }),
  /** A user's row in its conversation: gsi3, UMCONV#<uid>#C<cid> or UMCONV#<uid>#D, <mid> (always). */
  userMessageInConversation: (userId: number, channelId: number | null, messageId: number) => ({
    gsi3pk: channelId === null ? `UMCONV#${userId}#D` : `UMCONV#${userId}#C${channelId}`,
    gsi3sk: pad(messageId),
  }),
  /** A user's policy among its topic's policies: gsi1, TOPICPOLICIES#<cid>#<lowercased topic>, USER#<uid>. */
  topicPolicy: (channelId: number, topic: string, userId: number) =>
    fitted('topic', { gsi1pk: `TOPICPOLICIES#${channelId}#${topic.toLowerCase()}`, gsi1sk: `USER#${pad(userId)}` }),
  /** A user's mentioned messages: gsi4, MENTIONED#<uid>, <mid> (while mentioned or wildcard-mentioned). */
  mentionedMessage: (userId: number, messageId: number) => ({ gsi4pk: `MENTIONED#${userId}`, gsi4sk: pad(messageId) }),
  /** Every profile value of a realm, for register's user list: gsi1, PROFILEVALUES#<rid>, <uid>#<fid>. */
  profileValueInRealm: (realmId: number, userId: number, fieldId: number) => ({
    gsi1pk: `PROFILEVALUES#${realmId}`,
    gsi1sk: `${pad(userId)}#${pad(fieldId)}`,
  }),
  /** The values of one profile field (deleting the field, removing a dropdown choice): gsi2, FIELDVALUES#<rid>#<fid>, <uid>. */
  profileValueOfField: (realmId: number, fieldId: number, userId: number) => ({
    gsi2pk: `FIELDVALUES#${realmId}#${fieldId}`,
    gsi2sk: pad(userId),
  }),
  /** Presence rows of a realm by update id: gsi1, PRESENCE#<rid>, <last_update_id>. */
  presenceByUpdateId: (realmId: number, lastUpdateId: number) => ({ gsi1pk: `PRESENCE#${realmId}`, gsi1sk: pad(lastUpdateId) }),
  /** Presence rows of a realm by last connection: gsi2, PRESENCECONN#<rid>, <last_connected_time>. */
  presenceByConnected: (realmId: number, lastConnectedTime: number) => ({
    gsi2pk: `PRESENCECONN#${realmId}`,
    gsi2sk: pad(lastConnectedTime),
  }),
  /** A user's drafts by last edit time (microseconds, then id): gsi1, DRAFTS#<uid>. */
  draftByEditTime: (userId: number, editTimeMicros: number, draftId: number) => ({
    gsi1pk: `DRAFTS#${userId}`,
    gsi1sk: `${pad(editTimeMicros, 20)}#${pad(draftId)}`,
  }),
  draftsByEditTime: (userId: number) => ({ gsi1pk: `DRAFTS#${userId}` }),

  // Mobile sign-in and bots (issue 17): a user's password hash, the recent attempts of a rate
  // limit (a username's or a client address's logins, with a TTL), and a bot's storage (one item
  // per key, plus the running total of its size).
  password: (userId: number): Key => ({ pk: `USER#${userId}`, sk: 'PASSWORD' }),
  /** The organization's default channels (upstream's DefaultStream rows): one item holding their ids. */
  defaultChannels: (realmId: number): Key => ({ pk: `REALM#${realmId}`, sk: 'DEFAULTCHANNELS' }),
  /** `entity` is request text (a username, an address): one longer than a hash is named by its sha256, so any fits. */
  rateLimit: (domain: string, entity: string): Key =>
    fitted('username', {
      pk: `RATELIMIT#${domain}#${Buffer.byteLength(entity, 'utf8') <= 64 ? entity : `sha256:${createHash('sha256').update(entity).digest('hex')}`}`,
      sk: 'RATELIMIT',
    }),
  /** `keyHash`: sha256 of the storage key (keys of any length fit a sort key). */
  botStorageEntry: (botId: number, keyHash: string): Key => ({ pk: `USER#${botId}`, sk: `BOTSTORAGE#${keyHash}` }),
  botStorageOfBot: (botId: number) => ({ pk: `USER#${botId}`, skPrefix: 'BOTSTORAGE#' }),
  botStorageSize: (botId: number): Key => ({ pk: `USER#${botId}`, sk: 'BOTSTORAGESIZE' }),
  // File uploads (issue 16): an attachment's partition holds its record and one claim per message
  // that links it, so the read check is one query whatever the organization's size.
  attachment: (pathId: string): Key => fitted('upload path', { pk: `ATTACHMENT#${pathId}`, sk: 'ATTACHMENT' }),
  attachmentClaim: (pathId: string, messageId: number): Key =>
    fitted('upload path', { pk: `ATTACHMENT#${pathId}`, sk: `CLAIM#${pad(messageId)}` }),
  /** What the owner's partition keeps of one upload (by its id): GET /attachments lists them, DELETE finds one. */
  ownUpload: (userId: number, attachmentId: number): Key => ({ pk: `USER#${userId}`, sk: `UPLOAD#${pad(attachmentId)}` }),
  uploadsOfUser: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'UPLOAD#' }),
  /** The bytes of every upload of an organization (`bytes`): upstream's currently_used_upload_space_bytes. */
  uploadSpace: (realmId: number): Key => ({ pk: `REALM#${realmId}`, sk: 'UPLOADSPACE' }),
  /** A web session (lib/web/session.ts), named by the sha256 of its cookie's token: the table never holds a usable token. */
  session: (tokenHash: string): Key => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' }),
  /** A one-time hand-off of a sign-in to an organization's host (lib/actions/way-in/web-sessions.ts), by its token's sha256. */
  loginHandoff: (tokenHash: string): Key => ({ pk: `LOGINHANDOFF#${tokenHash}`, sk: 'LOGINHANDOFF' }),
  /** The sessions of a user (gsi1), for ending them all at once. */
  sessionOfUser: (userId: number, tokenHash: string) => ({ gsi1pk: `SESSIONS#${userId}`, gsi1sk: tokenHash }),
  /** A user's status (text and emoji): in the realm partition, so that register reads all in one query. */
  userStatus: (realmId: number, userId: number): Key => ({ pk: `REALM#${realmId}`, sk: `STATUS#${pad(userId)}` }),
  userStatusesOfRealm: (realmId: number) => ({ pk: `REALM#${realmId}`, skPrefix: 'STATUS#' }),
  /** A user's registered client devices (the mobile app's, for push notifications). */
  clientDevice: (userId: number, deviceId: number): Key => ({ pk: `USER#${userId}`, sk: `DEVICE#${pad(deviceId)}` }),
  clientDevicesOfUser: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'DEVICE#' }),
  /** A message a user's phones were notified of and that is not read yet (the push job's, TTL `expiresAt`). */
  pushNotified: (userId: number, messageId: number): Key => ({ pk: `USER#${userId}`, sk: `PUSHED#${pad(messageId)}` }),
  pushNotifiedOfUser: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'PUSHED#' }),
  /** A message a missed-message email may tell a user of, waiting for the user's email batch (lib/store/missed-emails.ts, TTL `expiresAt`). */
  missedEmail: (userId: number, messageId: number): Key => ({ pk: `USER#${userId}`, sk: `MISSEDEMAIL#${pad(messageId)}` }),
  missedEmailsOfUser: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'MISSEDEMAIL#' }),
  /** A user's pending missed-message email batch: when its delivery check is scheduled (TTL `expiresAt`). */
  missedEmailBatch: (userId: number): Key => ({ pk: `USER#${userId}`, sk: 'MISSEDEMAILBATCH' }),
  /** A missed-message email's reply address (upstream's MissedMessageEmailAddress), by its token (TTL `expiresAt`). */
  replyAddress: (token: string): Key => ({ pk: `REPLYADDRESS#${token}`, sk: 'REPLYADDRESS' }),
  /** When a user was last sent a digest email, and by which run (lib/store/digests.ts, TTL `expiresAt`). */
  digestSent: (userId: number): Key => ({ pk: `USER#${userId}`, sk: 'DIGESTSENT' }),
  /** A one-click unsubscribe link's token (upstream's /accounts/unsubscribe/<type>/<token>), by its sha256. */
  unsubscribeToken: (token: string): Key => ({ pk: `UNSUBSCRIBE#${sha256(token)}`, sk: 'UNSUBSCRIBE' }),
  /**
   * A legacy FCM/APNs token of a user (POST /users/me/android_gcm_reg_id, /users/me/apns_device_token),
   * named by its kind and the sha256 of the token (up to 4,096 characters: too long for a key).
   */
  pushToken: (userId: number, kind: string, token: string): Key => ({
    pk: `USER#${userId}`,
    sk: `PUSHTOKEN#${kind}#${createHash('sha256').update(token).digest('hex')}`,
  }),
  pushTokensOfUser: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'PUSHTOKEN#' }),
} as const;

// The events table (see docs/data-model.md, "Event streams and queues"):
// | pattern                          | pk                 | sk                         |
// |----------------------------------|--------------------|----------------------------|
// | stream head (last seq, alloc ms) | STREAM#R<rid>[.<shard>] / STREAM#U<uid> | = HEAD |
// | stream events after a cursor     | STREAM#…           | > E#<seq>                  |
// | queue (descriptor, refs, cursors)| QUEUE#<queue_id>   | = HEAD                     |
// | queues of a user (TTL)           | QUEUES#U<uid>      | begins_with Q#             |
export const eventKeys = {
  /** One of the organization's identical stream shards (shard 0 keeps the unsharded name). */
  realmStream: (realmId: number, shard = 0): string => (shard === 0 ? `STREAM#R${realmId}` : `STREAM#R${realmId}.${shard}`),
  userStream: (userId: number): string => `STREAM#U${userId}`,
  streamHead: (stream: string): Key => ({ pk: stream, sk: 'HEAD' }),
  streamEvent: (stream: string, seq: number): Key => ({ pk: stream, sk: `E#${pad(seq)}` }),
  streamEventsAfter: (stream: string, seq: number) => ({ pk: stream, skAfter: `E#${pad(seq)}`, skEnd: 'E#~' }),
  queue: (queueId: string): Key => fitted('queue id', { pk: `QUEUE#${queueId}`, sk: 'HEAD' }),
  /** A user's record of one of their queues, so that deactivating the user can delete them. */
  queueOfUser: (userId: number, queueId: string): Key => fitted('queue id', { pk: `QUEUES#U${userId}`, sk: `Q#${queueId}` }),
  queuesOfUser: (userId: number) => ({ pk: `QUEUES#U${userId}`, skPrefix: 'Q#' }),
} as const;
