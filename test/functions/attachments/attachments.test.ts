// GET /attachments and DELETE /attachments/{attachment_id} against the development data and the
// local S3 store: Hamlet (10) and Iago (11) upload in organization 2; Denmark (1) is a public channel.
import { handler as removeAttachment } from '../../../functions/attachments/delete';
import { handler as getAttachments } from '../../../functions/attachments/list';
import { handler as deleteMessage } from '../../../functions/messages/delete';
import { handler as sendMessage } from '../../../functions/messages/send';
import { handler as serveHandler } from '../../../functions/uploads/serve';
import { handler as uploadHandler } from '../../../functions/uploads/upload';
import * as attachmentsStore from '../../../lib/store/attachments';
import * as filesStore from '../../../lib/store/files';
import { buildEvent, call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { multipart } from '../../helpers/multipart';

const HAMLET = 10;
const hamlet = 'hamlet@zulip.com';
const iago = 'iago@zulip.com';
const cordelia = 'cordelia@zulip.com';

type Uploaded = { id: number; url: string; pathId: string; size: number };

/** Uploads a file as this user; its id (from the owner's list), URL and path id. */
const uploadAs = async (as: string, name = 'notes.txt', size = 300): Promise<Uploaded> => {
  const content = Buffer.alloc(size, 7);
  const { url } = expectSuccess(
    await call(uploadHandler, {
      method: 'POST',
      path: '/user_uploads',
      as,
      rawBody: multipart([{ filename: name, contentType: 'text/plain', content }]),
    }),
  );
  const pathId = (url as string).slice('/user_uploads/'.length);
  const listed = expectSuccess(await list(as)).attachments as { id: number; path_id: string }[];
  return { id: listed.find((a) => a.path_id === pathId)!.id, url, pathId, size };
};

const list = (as: string) => call(getAttachments, { method: 'GET', path: '/attachments', as });
const remove = (as: string, id: number | string) =>
  call(removeAttachment, { method: 'DELETE', path: `/attachments/${id}`, pathParameters: { attachment_id: String(id) }, as });

const send = async (as: string, content: string): Promise<number> =>
  expectSuccess(
    await call(sendMessage, { method: 'POST', path: '/messages', as, params: { type: 'stream', to: 1, topic: 'files', content } }),
  ).id as number;

const fetchFile = async (as: string, url: string) => {
  const [, , realmId, ...rest] = url.split('/');
  const event = await buildEvent({ method: 'GET', path: url, as, pathParameters: { realm_id_str: realmId, filename: rest.join('/') } });
  event.rawPath = url;
  return serveHandler(event);
};

/** What a removal must have left alone or taken away. */
const stateOf = async (upload: Uploaded, ownerId: number) => ({
  record: (await attachmentsStore.getAttachmentWithClaims(upload.pathId))?.attachment,
  own: await attachmentsStore.getUploadOfUser(ownerId, upload.id),
  bytes: (await filesStore.getFile(upload.pathId))?.length,
  space: await attachmentsStore.getUploadSpaceUsed(2),
});

describe('GET /attachments', () => {
  it("lists only the caller's uploads, in id order, with the organization's upload space", async () => {
    const before = await attachmentsStore.getUploadSpaceUsed(2);
    const first = await uploadAs(hamlet, 'a.txt', 100);
    const second = await uploadAs(hamlet, 'b.txt', 250);
    const iagos = await uploadAs(iago, 'c.txt', 40);
    const body = expectSuccess(await list(hamlet));
    const ours = (body.attachments as { id: number }[]).filter((a) => [first.id, second.id, iagos.id].includes(a.id));
    expect(ours).toEqual([
      { id: first.id, name: 'a.txt', path_id: first.pathId, size: 100, create_time: expect.any(Number), message_ids: [] },
      { id: second.id, name: 'b.txt', path_id: second.pathId, size: 250, create_time: expect.any(Number), message_ids: [] },
    ]);
    expect(second.id).toBeGreaterThan(first.id);
    expect(body.upload_space_used).toBe(before + 390);
    expect(Object.keys(body).sort()).toEqual(['attachments', 'msg', 'result', 'upload_space_used']);
  });

  it('answers an empty list for a user who never uploaded', async () => {
    const body = expectSuccess(await list('prospero@zulip.com'));
    expect(body.attachments).toEqual([]);
    expect(typeof body.upload_space_used).toBe('number');
  });

  it('lists the messages that link a file, and drops a message once it is deleted', async () => {
    const upload = await uploadAs(hamlet, 'linked.txt');
    const m1 = await send(hamlet, `see [linked](${upload.url})`);
    const m2 = await send(iago, `again: ${upload.url}`);
    const messageIds = async () =>
      (expectSuccess(await list(hamlet)).attachments as { id: number; message_ids: number[] }[]).find((a) => a.id === upload.id)!
        .message_ids;
    expect(await messageIds()).toEqual([m1, m2]);
    expectSuccess(
      await call(deleteMessage, { method: 'DELETE', path: `/messages/${m1}`, pathParameters: { message_id: String(m1) }, as: iago }),
    );
    expect(await messageIds()).toEqual([m2]);
  });

  it("sends an attachment add event to the uploader's queues only when a file is uploaded", async () => {
    const hamletQueue = await openQueue(hamlet, { eventTypes: ['attachment'] });
    const iagoQueue = await openQueue(iago, { eventTypes: ['attachment'] });
    const upload = await uploadAs(hamlet, 'event.txt', 12);
    const space = await attachmentsStore.getUploadSpaceUsed(2);
    expect(await hamletQueue.drain()).toEqual([
      {
        type: 'attachment',
        op: 'add',
        attachment: {
          id: upload.id,
          name: 'event.txt',
          path_id: upload.pathId,
          size: 12,
          create_time: expect.any(Number),
          message_ids: [],
        },
        upload_space_used: space,
      },
    ]);
    expect(await iagoQueue.drain()).toEqual([]);
  });
});

describe('attachment update events', () => {
  it("tells the owner's queues only, when a message links the file, which messages now link it", async () => {
    const upload = await uploadAs(hamlet, 'shared.txt', 30);
    const hamletQueue = await openQueue(hamlet, { eventTypes: ['attachment'] });
    const iagoQueue = await openQueue(iago, { eventTypes: ['attachment'] });
    const m1 = await send(hamlet, `see ${upload.url}`);
    // Linked onward by another user who may read it (it is in a public channel now).
    const m2 = await send(iago, `also ${upload.url}`);
    const space = await attachmentsStore.getUploadSpaceUsed(2);
    const update = (messageIds: number[]) => ({
      type: 'attachment',
      op: 'update',
      attachment: {
        id: upload.id,
        name: 'shared.txt',
        path_id: upload.pathId,
        size: 30,
        create_time: expect.any(Number),
        message_ids: messageIds,
      },
      upload_space_used: space,
    });
    expect(await hamletQueue.drain()).toEqual([update([m1]), update([m1, m2])]);
    expect(await iagoQueue.drain()).toEqual([]);
  });
});

describe('DELETE /attachments/{attachment_id}', () => {
  it("deletes the file's bytes and record, and takes its size off the upload space", async () => {
    const upload = await uploadAs(hamlet, 'gone.txt', 123);
    const before = await stateOf(upload, HAMLET);
    expect(before.bytes).toBe(123);
    expectSuccess(await remove(hamlet, upload.id));
    expect(await stateOf(upload, HAMLET)).toEqual({ record: undefined, own: undefined, bytes: undefined, space: before.space - 123 });
    expect((await fetchFile(hamlet, upload.url)).statusCode).toBe(404);
    const listed = expectSuccess(await list(hamlet)).attachments as { id: number }[];
    expect(listed.map((a) => a.id)).not.toContain(upload.id);
  });

  it('deletes a file that messages link; the links then answer 404', async () => {
    const upload = await uploadAs(hamlet, 'claimed.txt');
    await send(hamlet, `see ${upload.url}`);
    expectSuccess(await remove(hamlet, upload.id));
    expect(await attachmentsStore.getAttachmentWithClaims(upload.pathId)).toBeUndefined();
    expect(await attachmentsStore.listClaimedMessageIds(upload.pathId)).toEqual([]);
    expect((await fetchFile(iago, upload.url)).statusCode).toBe(404);
  });

  it.each([
    ["another user's file (even for an administrator)", iago],
    ["another user's file", cordelia],
    ["another organization's user", 'king@lear.org'],
  ])('refuses %s with "Invalid attachment" and changes nothing', async (_what, as) => {
    const upload = await uploadAs(hamlet, 'kept.txt');
    const before = await stateOf(upload, HAMLET);
    const queue = await openQueue(hamlet, { eventTypes: ['attachment'] });
    expectError(await remove(as, upload.id), 'Invalid attachment', 400);
    expect(await stateOf(upload, HAMLET)).toEqual(before);
    expect((await fetchFile(hamlet, upload.url)).statusCode).toBe(200);
    expect(await queue.drain()).toEqual([]);
  });

  it('refuses an id that names no file with "Invalid attachment", and a second delete the same way', async () => {
    expectError(await remove(hamlet, 987_654), 'Invalid attachment', 400);
    const upload = await uploadAs(hamlet, 'twice.txt');
    expectSuccess(await remove(hamlet, upload.id));
    const space = await attachmentsStore.getUploadSpaceUsed(2);
    expectError(await remove(hamlet, upload.id), 'Invalid attachment', 400);
    expect(await attachmentsStore.getUploadSpaceUsed(2)).toBe(space);
  });

  it('lets only one of two concurrent deletes succeed, and counts the size off once', async () => {
    const upload = await uploadAs(hamlet, 'race.txt', 77);
    const space = await attachmentsStore.getUploadSpaceUsed(2);
    const results = await Promise.all([remove(hamlet, upload.id), remove(hamlet, upload.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(await attachmentsStore.getUploadSpaceUsed(2)).toBe(space - 77);
  });

  it("sends an attachment remove event to the owner's queues only", async () => {
    const upload = await uploadAs(hamlet, 'removed.txt', 50);
    const hamletQueue = await openQueue(hamlet, { eventTypes: ['attachment'] });
    const iagoQueue = await openQueue(iago, { eventTypes: ['attachment'] });
    expectSuccess(await remove(hamlet, upload.id));
    expect(await hamletQueue.drain()).toEqual([
      { type: 'attachment', op: 'remove', attachment: { id: upload.id }, upload_space_used: await attachmentsStore.getUploadSpaceUsed(2) },
    ]);
    expect(await iagoQueue.drain()).toEqual([]);
  });

  it('answers 404 for a path id that is not a number', async () => {
    expect((await remove(hamlet, 'abc')).status).toBe(404);
  });
});
