// The one check of key sizes (lib/store/keys.ts): every key template that embeds request text
// refuses a key DynamoDB would refuse (partition key over 2048 bytes, sort key over 1024), and a
// lookup by such text finds nothing without asking DynamoDB.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import * as attachmentsStore from '../../../lib/store/attachments';
import { dbMetrics } from '../../../lib/store/client';
import * as queuesStore from '../../../lib/store/event-queues';
import { entityKeys, eventKeys, KeyTooLongError, keys, lookupKey } from '../../../lib/store/keys';
import { messagePartitions, queryPartitionPage } from '../../../lib/store/message-queries';
import * as topicsStore from '../../../lib/store/topics';
import * as realmsStore from '../../../lib/store/realms';
import * as userTopicsStore from '../../../lib/store/user-topics';
import * as usersStore from '../../../lib/store/users';

const thrownBy = (build: () => unknown): unknown => {
  try {
    build();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('key templates with request text', () => {
  it('take a partition key of exactly 2048 bytes and refuse one of 2049', () => {
    const room = 2048 - 'ATTACHMENT#'.length;
    expect(entityKeys.attachment('a'.repeat(room)).pk).toHaveLength(2048);
    expect(thrownBy(() => entityKeys.attachment('a'.repeat(room + 1)))).toEqual(new KeyTooLongError('upload path'));
  });

  it('name a rate-limited entity of any length by its sha256 when it is longer than one', () => {
    expect(entityKeys.rateLimit('authenticate_by_username', '2:iago@zulip.com').pk).toBe(
      'RATELIMIT#authenticate_by_username#2:iago@zulip.com',
    );
    expect(entityKeys.rateLimit('authenticate_by_username', 'a'.repeat(100 * 1024)).pk).toMatch(
      /^RATELIMIT#authenticate_by_username#sha256:[0-9a-f]{64}$/,
    );
  });

  it('take a sort key of exactly 1024 bytes and refuse one of 1025', () => {
    const room = 1024 - 'USERTOPIC#000000000003#'.length;
    expect(entityKeys.userTopic(10, 3, 'a'.repeat(room)).sk).toHaveLength(1024);
    expect(thrownBy(() => entityKeys.userTopic(10, 3, 'a'.repeat(room + 1)))).toEqual(new KeyTooLongError('topic'));
  });

  it('count bytes, not characters: 300 emoji are 600 UTF-16 units but 1,200 bytes', () => {
    expect('😀'.repeat(300).length).toBeLessThan(1024 - 'TOPIC#'.length);
    expect(thrownBy(() => entityKeys.topicSummary(3, '😀'.repeat(300)))).toBeInstanceOf(KeyTooLongError);
  });

  it('measure the key as built: a lowercased İ takes 3 bytes where the text had 2', () => {
    const email = 'İ'.repeat(700); // 1,400 bytes as sent, 2,100 lowercased
    expect(Buffer.byteLength(`EMAIL#${email}`)).toBeLessThan(2048);
    expect(thrownBy(() => keys.usersByEmail(email))).toEqual(new KeyTooLongError('email'));
  });

  it.each([
    ['a subdomain', () => keys.realmByName('a'.repeat(3000))],
    ['an API key', () => keys.userByApiKey('a'.repeat(3000))],
    ['an email (one organization)', () => keys.userByEmail('a'.repeat(3000), 2)],
    ['a channel name', () => entityKeys.channelName(2, 'a'.repeat(3000))],
    ['a group name', () => entityKeys.groupName(2, 'a'.repeat(3000))],
    ['a topic (received)', () => entityKeys.receivedTopic(10, 3, 'a'.repeat(3000))],
    ['a topic (its messages)', () => entityKeys.messagesOfTopic(3, 'a'.repeat(3000))],
    ['a topic (one message)', () => entityKeys.topicMessage(3, 'a'.repeat(3000), 1)],
    ['an upload path', () => entityKeys.attachment('a'.repeat(3000))],
    ['an upload path (a claim)', () => entityKeys.attachmentClaim('a'.repeat(3000), 1)],
    ['a queue id', () => eventKeys.queue('a'.repeat(3000))],
  ])('refuse %s of 3 KB', (_label, build) => {
    expect(thrownBy(build)).toBeInstanceOf(KeyTooLongError);
  });
});

/**
 * Templates with a text parameter that is never request text: internal names, or a hash. Every
 * other template with a `string` parameter must run its key through the size check (`fitted`).
 */
const NOT_REQUEST_TEXT: Record<string, string> = {
  'keys.counter': 'entity names are constants of the code',
  'entityKeys.messageRecipients': 'the part is RCPT#<n> or H, written by the send',
  'entityKeys.botStorageEntry': 'the storage key arrives as its sha256',
  'eventKeys.streamHead': 'stream names come from realmStream/userStream',
  'eventKeys.streamEvent': 'stream names come from realmStream/userStream',
  'eventKeys.streamEventsAfter': 'stream names come from realmStream/userStream',
  'entityKeys.invitesSentOnDay': 'the day is YYYY-MM-DD of the service clock',
  'entityKeys.session': 'the session token arrives as its sha256',
  'entityKeys.sessionOfUser': 'the session token arrives as its sha256',
  'entityKeys.loginHandoff': 'the hand-off token arrives as its sha256',
  'entityKeys.pushToken': 'the push token goes in as its sha256; the kind is fcm or apns',
  'entityKeys.navigationView': 'the fragment goes in as its sha256',
  'entityKeys.navigationViewName': 'the name goes in as its sha256',
  'entityKeys.playgroundName': 'the language and name go in as their sha256',
  'entityKeys.channelFolderName': 'the lowercased name goes in as its sha256',
  'entityKeys.replyAddress': 'only a token of mm and 32 hex digits is looked up (isReplyToken)',
  'entityKeys.unsubscribeToken': 'the unsubscribe token goes in as its sha256',
};

describe('every key template of lib/store/keys.ts', () => {
  it('checks its size when it takes text (or is listed as taking none from a request)', () => {
    const path = join(__dirname, '..', '..', '..', 'lib', 'store', 'keys.ts');
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const unchecked: string[] = [];
    const textTemplates: string[] = [];
    source.forEachChild((statement) => {
      if (!ts.isVariableStatement(statement)) return;
      for (const declaration of statement.declarationList.declarations) {
        let init = declaration.initializer;
        if (init && ts.isAsExpression(init)) init = init.expression;
        if (!init || !ts.isObjectLiteralExpression(init)) continue;
        for (const property of init.properties) {
          if (!ts.isPropertyAssignment(property) || !ts.isArrowFunction(property.initializer)) continue;
          const name = `${declaration.name.getText(source)}.${property.name.getText(source)}`;
          const takesText = property.initializer.parameters.some((p) => p.type?.getText(source) === 'string');
          if (!takesText || name in NOT_REQUEST_TEXT) continue;
          textTemplates.push(name);
          if (!property.initializer.body.getText(source).includes('fitted(')) unchecked.push(name);
        }
      }
    });
    expect(textTemplates.length).toBeGreaterThan(10);
    expect(unchecked).toEqual([]);
  });
});

describe('lookupKey', () => {
  it('gives the key, or undefined for text too long for one', () => {
    expect(lookupKey(() => eventKeys.queue('q'))).toEqual({ pk: 'QUEUE#q', sk: 'HEAD' });
    expect(lookupKey(() => eventKeys.queue('q'.repeat(3000)))).toBeUndefined();
  });

  it('lets any other error through', () => {
    expect(() =>
      lookupKey(() => {
        throw new Error('other');
      }),
    ).toThrow('other');
  });
});

describe('store lookups by text too long for a key', () => {
  const long = 'a'.repeat(3 * 1024);

  it.each([
    ['users by email', () => usersStore.listByEmail(`${long}@zulip.com`), []],
    ['a user by email in one organization', () => usersStore.getByEmail(2, `${long}@zulip.com`), undefined],
    ['a user by API key', () => usersStore.getByApiKey(long), undefined],
    ['an organization by subdomain', () => realmsStore.getByStringId(long), undefined],
    ['a topic policy', () => userTopicsStore.getUserTopic(10, 3, long), undefined],
    ['a topic summary', () => topicsStore.getTopicSummary(3, long), undefined],
    ['the senders of a topic', () => topicsStore.listSenderIdsOfTopic(3, long), []],
    ['an upload', () => attachmentsStore.getAttachmentWithClaims(`2/ab/cd/${long}`), undefined],
    ['a queue', () => queuesStore.get(long), undefined],
    ['a queue to delete', () => queuesStore.remove(long, 10), false],
    [
      "a page of a topic's messages",
      async () =>
        (await queryPartitionPage(messagePartitions.topic(3, long), { direction: 'older', from: 1e9, inclusive: true, limit: 10 })).items,
      [],
    ],
  ])('find nothing for %s, and do not ask DynamoDB', async (_label, lookup, none) => {
    const before = dbMetrics.requests;
    expect(await lookup()).toEqual(none);
    expect(dbMetrics.requests).toBe(before);
  });
});
