// Export archives made up for the import's tests and benchmark: a small organization in our
// export's layout (lib/actions/organization/export-archive.ts) with as many messages as asked,
// whose files a test may change or drop before they are packed, and a tar member whose header
// claims a size its body does not have (a hostile archive, without writing its bytes).
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { EXPORT_FORMAT, flagsMask } from '../lib/models/export-format';

export type FixtureFiles = Map<string, unknown>;

/** Folder of the made-up archives. */
export const FIXTURE_FOLDER = 'zulip-export-fixture';
/** The made-up organization's ids: users from 1001, channel 2001 ("general"), the upload's path. */
export const FIXTURE = { firstUser: 1001, channel: 2001, uploadPath: '7/ab/abcdefgh/notes.txt', uploadBody: 'moved with us' } as const;

/**
 * The files of an export of `users` members (the first an owner) subscribed to one channel, with
 * `messages` messages in it (1,000 to a file, each with a row per member, every other one read, a
 * reaction on every third) and an upload linked from the first message.
 */
export const fixtureFiles = (opts: { users?: number; messages?: number } = {}): FixtureFiles => {
  const userCount = opts.users ?? 3;
  const messageCount = opts.messages ?? 5;
  const userIds = Array.from({ length: userCount }, (_, i) => FIXTURE.firstUser + i);
  const channelRecipient = userCount + 1;
  const files: FixtureFiles = new Map();
  files.set('migration_status.json', { ...EXPORT_FORMAT, export_type: 'full_with_consent' });
  const reactions: Record<string, unknown>[] = [];
  for (let start = 1, n = 1; start <= messageCount; start += 1000, n++) {
    const ids = Array.from({ length: Math.min(1000, messageCount - start + 1) }, (_, i) => start + i);
    files.set(`messages-${String(n).padStart(6, '0')}.json`, {
      zerver_message: ids.map((id) => ({
        id,
        sender: userIds[id % userCount],
        recipient: channelRecipient,
        subject: `topic ${id % 20}`,
        content:
          id === 1 ? `[notes](/user_uploads/${FIXTURE.uploadPath})` : `Message ${id}, long enough to look like a sentence someone typed.`,
        rendered_content: `<p>Message ${id}</p>`,
        date_sent: 1_700_000_000 + id,
        edit_history: null,
        has_attachment: id === 1,
        sending_client: 'website',
      })),
      zerver_usermessage: ids.flatMap((id) =>
        userIds.map((u) => ({ id: id * 1_000_000 + u, user_profile: u, message: id, flags_mask: flagsMask(id % 2 === 0 ? ['read'] : []) })),
      ),
    });
    for (const id of ids.filter((x) => x % 3 === 0))
      reactions.push({
        id: reactions.length + 1,
        message: id,
        user_profile: userIds[0],
        emoji_name: '+1',
        emoji_code: '1f44d',
        reaction_type: 'unicode_emoji',
      });
  }
  files.set('realm.json', {
    zerver_realm: [{ id: 7, string_id: 'elsewhere', name: 'Elsewhere', description: 'Where we were', date_created: 1_600_000_000 }],
    zerver_userprofile: userIds.map((id, i) => ({
      id,
      realm: 7,
      email: `person${i}@elsewhere.example`,
      delivery_email: `person${i}@elsewhere.example`,
      full_name: `Person ${i}`,
      role: i === 0 ? 100 : 400,
      is_active: true,
      is_bot: false,
      bot_type: null,
      bot_owner: null,
      date_joined: 1_600_000_000,
      timezone: '',
    })),
    zerver_userprofile_crossrealm: [],
    zerver_stream: [
      {
        id: FIXTURE.channel,
        realm: 7,
        name: 'general',
        description: '',
        invite_only: false,
        creator: userIds[0],
        recipient: channelRecipient,
      },
    ],
    zerver_recipient: [
      ...userIds.map((id, i) => ({ id: i + 1, type: 1, type_id: id })),
      { id: channelRecipient, type: 2, type_id: FIXTURE.channel },
    ],
    zerver_subscription: userIds.map((u, i) => ({
      id: i + 1,
      user_profile: u,
      recipient: channelRecipient,
      active: true,
      color: '#76ce90',
    })),
    zerver_huddle: [],
    zerver_reaction: reactions,
  });
  files.set('attachment.json', {
    zerver_attachment: [
      {
        id: 1,
        realm: 7,
        owner: userIds[0],
        file_name: 'notes.txt',
        path_id: FIXTURE.uploadPath,
        size: 13,
        content_type: 'text/plain',
        messages: [1],
      },
    ],
  });
  files.set(`uploads/${FIXTURE.uploadPath}`, Buffer.from(FIXTURE.uploadBody));
  return files;
};

/** A tar member: a file (JSON values are written as JSON) or, with `type`, a link or folder. */
export type Member = { name: string; body?: unknown; type?: 'symlink' | 'directory'; linkname?: string };

const bytesOf = (body: unknown): Buffer =>
  Buffer.isBuffer(body) ? body : typeof body === 'string' ? Buffer.from(body) : Buffer.from(JSON.stringify(body));

/** Packs members as a tar (not compressed). */
export const tarOf = async (members: Member[]): Promise<Buffer> => {
  const tar = pack();
  const chunks: Buffer[] = [];
  tar.on('data', (c: unknown) => void chunks.push(c as Buffer));
  const ended = new Promise<void>((resolve) => tar.on('end', () => resolve()));
  for (const m of members) {
    if (m.type) tar.entry({ name: m.name, type: m.type, linkname: m.linkname });
    else tar.entry({ name: m.name, mode: 0o644 }, bytesOf(m.body));
  }
  tar.finalize();
  await ended;
  return Buffer.concat(chunks);
};

/** The files packed as an export archive (.tar.gz) under FIXTURE_FOLDER, with `extra` members after them. */
export const archiveOf = async (files: FixtureFiles, extra: Member[] = []): Promise<Buffer> =>
  gzipSync(await tarOf([...[...files].map(([name, body]) => ({ name: `${FIXTURE_FOLDER}/${name}`, body })), ...extra]));

/**
 * A .tar.gz whose one member's header says it is `size` bytes (base-256, as tar writes sizes past
 * 8 GiB) while only a few bytes follow: what a reader that trusts headers would try to write out.
 */
export const archiveClaimingSize = async (name: string, size: number): Promise<Buffer> => {
  const tar = await tarOf([{ name, body: 'x' }]);
  const header = tar.subarray(0, 512);
  header[124] = 0x80;
  let rest = size;
  for (let i = 11; i > 0; i--) {
    header[124 + i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  header.fill(0x20, 148, 156);
  const sum = header.reduce((a, b) => a + b, 0);
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return gzipSync(tar);
};
