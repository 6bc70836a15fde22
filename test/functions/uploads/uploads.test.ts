// POST /user_uploads, GET /api/v1/user_uploads/{realm_id}/{path} (temporary URL) and the files at
// /user_uploads/... against the development data and the local S3 store: Hamlet (10) uploads;
// Denmark (1) is public; core team (6) is private with protected history (9, 10, 11 subscribed);
// Polonius (13) is a guest subscribed to Verona (3) only; King Lear (20) is in another organization.
import { gunzipSync } from 'node:zlib';
import { handler as registerHandler } from '../../../functions/events/register';
import { handler as uploadHandler } from '../../../functions/uploads/upload';
import { handler as temporaryUrlHandler } from '../../../functions/uploads/temporary-url';
import { handler as serveHandler } from '../../../functions/uploads/serve';
import { handler as serveTemporaryHandler } from '../../../functions/uploads/serve-temporary';
import { claimAttachmentsForMessage } from '../../../lib/actions/uploads/files';
import { advanceClock, freezeClock } from '../../../lib/clock';
import { MAX_FILE_UPLOAD_SIZE_BYTES } from '../../../lib/models/attachment';
import * as attachmentsStore from '../../../lib/store/attachments';
import * as channelsStore from '../../../lib/store/channels';
import * as usersStore from '../../../lib/store/users';
import { buildEvent, call, expectError, expectSuccess } from '../../helpers/api';
import { putChannelMessage } from '../../helpers/channels';
import { multipart, type FilePart } from '../../helpers/multipart';
import { PageClient } from '../../helpers/web';
import { devPassword } from '../../../lib/passwords';

const upload = (as: string, files: FilePart[], fields: Record<string, string> = {}) =>
  call(uploadHandler, { method: 'POST', path: '/user_uploads', as, rawBody: multipart(files, fields) });

/** `/user_uploads/2/ab/xyz/name` → the path parameters API Gateway gives `{realm_id_str}/{filename+}`. */
const pathParamsOf = (url: string) => {
  const [, , realmId, ...rest] = url.split('/');
  return { realm_id_str: realmId, filename: rest.join('/') };
};

const temporaryUrl = (as: string, url: string) =>
  call(temporaryUrlHandler, { method: 'GET', path: `/user_uploads/{realm_id_str}/{filename}`, as, pathParameters: pathParamsOf(url) });

/** GET of a file at the site root: the raw response (bytes, or a JSON error). */
const fetchFile = async (as: string, url: string) => {
  const event = await buildEvent({ method: 'GET', path: url, as, pathParameters: pathParamsOf(url) });
  event.rawPath = url;
  return serveHandler(event);
};

const fetchTemporary = async (url: string) => {
  const [, , , token, filename] = url.split('/');
  const event = await buildEvent({ method: 'GET', path: url, pathParameters: { token, filename } });
  event.rawPath = url;
  return serveTemporaryHandler(event);
};

const jsonOf = (response: { body: string; isBase64Encoded?: boolean }) =>
  JSON.parse(response.isBase64Encoded ? gunzipSync(Buffer.from(response.body, 'base64')).toString() : response.body);

const BYTES = Buffer.from(Array.from({ length: 300 }, (_, i) => i % 256));

const uploadAsHamlet = async (filename = 'notes.txt', contentType = 'text/plain', content = BYTES): Promise<string> =>
  expectSuccess(await upload('hamlet@zulip.com', [{ filename, contentType, content }])).url as string;

describe('POST /user_uploads', () => {
  it('stores the file and answers its URL as url and uri, with the stored file name', async () => {
    const body = expectSuccess(await upload('hamlet@zulip.com', [{ filename: 'notes.txt', contentType: 'text/plain', content: BYTES }]));
    expect(body.url).toMatch(/^\/user_uploads\/2\/[0-9a-f]{1,2}\/[A-Za-z0-9_-]{24}\/notes\.txt$/);
    expect(body).toEqual({ result: 'success', msg: '', url: body.url, uri: body.url, filename: 'notes.txt' });
  });

  it('stores the name sanitized as upstream does, and percent-encodes it in the URL', async () => {
    const body = expectSuccess(
      await upload('hamlet@zulip.com', [{ filename: 'my report (final)!.pdf', contentType: 'application/pdf', content: BYTES }]),
    );
    expect(body.filename).toBe('my-report-final.pdf');
    expect(body.url).toMatch(/\/my-report-final\.pdf$/);
    const unicode = expectSuccess(await upload('hamlet@zulip.com', [{ filename: 'été.txt', content: BYTES }]));
    expect(unicode.filename).toBe('été.txt');
    expect(unicode.url).toMatch(/\/%C3%A9t%C3%A9\.txt$/);
  });

  it("refuses a request without a file with upstream's message", async () => {
    expectError(await upload('hamlet@zulip.com', [], { topic: 'x' }), 'You must specify a file to upload');
  });

  it('reads a file part with an empty file name (an empty file input) as no file', async () => {
    expectError(await upload('hamlet@zulip.com', [{ filename: '', content: Buffer.alloc(0) }]), 'You must specify a file to upload');
  });

  it("refuses two files with upstream's message", async () => {
    const result = await upload('hamlet@zulip.com', [
      { filename: 'a.txt', content: BYTES },
      { field: 'other', filename: 'b.txt', content: BYTES },
    ]);
    expectError(result, 'You may only upload one file at a time');
  });

  it("refuses a file over the advertised limit with upstream's message", async () => {
    const result = await upload('hamlet@zulip.com', [{ filename: 'big.bin', content: Buffer.alloc(MAX_FILE_UPLOAD_SIZE_BYTES + 1) }]);
    expectError(result, 'Uploaded file is larger than the allowed limit of 4 MiB');
  });

  it('is the limit register advertises as max_file_upload_size_mib', async () => {
    const body = expectSuccess(
      await call(registerHandler, { method: 'POST', path: '/register', as: 'hamlet@zulip.com', params: { fetch_event_types: ['realm'] } }),
    );
    expect(body.max_file_upload_size_mib * 1024 * 1024).toBe(MAX_FILE_UPLOAD_SIZE_BYTES);
  });

  it('accepts a file of exactly the limit', async () => {
    const body = expectSuccess(
      await upload('hamlet@zulip.com', [{ filename: 'max.bin', content: Buffer.alloc(MAX_FILE_UPLOAD_SIZE_BYTES, 7) }]),
    );
    const response = await fetchFile('hamlet@zulip.com', body.url);
    expect(Buffer.from(response.body, 'base64').length).toBe(MAX_FILE_UPLOAD_SIZE_BYTES);
  });

  it('requires authentication', async () => {
    const result = await call(uploadHandler, {
      method: 'POST',
      path: '/user_uploads',
      rawBody: multipart([{ filename: 'a.txt', content: BYTES }]),
    });
    expectError(result, 'Not logged in: API authentication or user session required', 401, 'UNAUTHORIZED');
  });
});

describe('GET /user_uploads/{realm_id}/{path}: the file', () => {
  it('serves the uploader the exact bytes, with its type and an inline disposition for text', async () => {
    const url = await uploadAsHamlet();
    const response = await fetchFile('hamlet@zulip.com', url);
    expect(response.statusCode).toBe(200);
    expect(response.isBase64Encoded).toBe(true);
    expect(Buffer.from(response.body, 'base64')).toEqual(BYTES);
    expect(response.headers).toMatchObject({ 'Content-Type': 'text/plain', 'Content-Disposition': 'inline; filename="notes.txt"' });
  });

  it('serves a type a browser should not render as a download', async () => {
    const url = await uploadAsHamlet('page.html', 'text/html');
    const response = await fetchFile('hamlet@zulip.com', url);
    expect(response.headers['Content-Disposition']).toBe('attachment; filename="page.html"');
  });

  it('refuses another member before any message links the file', async () => {
    const url = await uploadAsHamlet();
    const response = await fetchFile('othello@zulip.com', url);
    expect({ status: response.statusCode, body: jsonOf(response) }).toEqual({
      status: 403,
      body: { result: 'error', msg: 'You are not authorized to view this file.', code: 'BAD_REQUEST' },
    });
  });

  it('serves another member once the uploader linked it in a public channel', async () => {
    const url = await uploadAsHamlet();
    const hamlet = (await usersStore.get(2, 10))!;
    const denmark = (await channelsStore.getChannel(2, 1))!;
    expect(
      await claimAttachmentsForMessage({
        realmId: 2,
        sender: hamlet,
        messageId: 9001,
        recipient: { kind: 'channel', channel: denmark },
        content: `see [notes](${url})`,
      }),
    ).toEqual([url.slice('/user_uploads/'.length)]);
    const response = await fetchFile('othello@zulip.com', url);
    expect(response.statusCode).toBe(200);
    expect(Buffer.from(response.body, 'base64')).toEqual(BYTES);
  });

  it("answers 404 to a user of another organization, whatever the file's access", async () => {
    const url = await uploadAsHamlet();
    const hamlet = (await usersStore.get(2, 10))!;
    const denmark = (await channelsStore.getChannel(2, 1))!;
    await claimAttachmentsForMessage({
      realmId: 2,
      sender: hamlet,
      messageId: 9002,
      recipient: { kind: 'channel', channel: denmark },
      content: url,
    });
    const response = await fetchFile('king@lear.org', url);
    expect({ status: response.statusCode, body: jsonOf(response) }).toEqual({
      status: 404,
      body: { result: 'error', msg: 'File not found.', code: 'BAD_REQUEST' },
    });
  });

  it('answers 404 for a path no upload has', async () => {
    const response = await fetchFile('hamlet@zulip.com', '/user_uploads/2/aa/nosuchfileatallxxxxxxxxx/x.txt');
    expect({ status: response.statusCode, body: jsonOf(response) }).toEqual({
      status: 404,
      body: { result: 'error', msg: 'File not found.', code: 'BAD_REQUEST' },
    });
  });

  it('requires authentication', async () => {
    const url = await uploadAsHamlet();
    const event = await buildEvent({ method: 'GET', path: url, pathParameters: pathParamsOf(url) });
    const response = await serveHandler(event);
    expect(response.statusCode).toBe(401);
  });

  describe('followed from the web app, with the browser session', () => {
    /** GET of a file with only a Cookie header, as a browser following a link sends it. */
    const fetchWithCookie = async (url: string, cookie: string) => {
      const event = await buildEvent({ method: 'GET', path: url, pathParameters: pathParamsOf(url), headers: { cookie } });
      event.rawPath = url;
      return serveHandler(event);
    };
    const browserOf = async (email: string) => {
      const browser = new PageClient();
      await browser.logIn(email, devPassword(email));
      return browser;
    };

    it("serves the file to the signed-in uploader's browser", async () => {
      const url = await uploadAsHamlet();
      const browser = await browserOf('hamlet@zulip.com');
      const response = await fetchWithCookie(url, `sessionid=${browser.cookies.sessionid}`);
      expect(response.statusCode).toBe(200);
      expect(Buffer.from(response.body, 'base64')).toEqual(BYTES);
    });

    it("applies the same access rule to the session's user: another member before any message links it", async () => {
      const url = await uploadAsHamlet();
      const browser = await browserOf('othello@zulip.com');
      const response = await fetchWithCookie(url, `sessionid=${browser.cookies.sessionid}`);
      expect(jsonOf(response)).toMatchObject({ result: 'error', msg: 'You are not authorized to view this file.' });
      expect(response.statusCode).toBe(403);
    });

    it("answers a stale session's cookie with the session challenge, not a Basic prompt a browser would show", async () => {
      const url = await uploadAsHamlet();
      const response = await fetchWithCookie(url, `sessionid=${'x'.repeat(43)}`);
      expect(response.statusCode).toBe(401);
      expect(response.headers['WWW-Authenticate']).toBe('Session realm="zulip"');
    });

    it('prefers the Authorization header when both are sent, as the API', async () => {
      const url = await uploadAsHamlet();
      const browser = await browserOf('othello@zulip.com');
      const event = await buildEvent({
        method: 'GET',
        path: url,
        as: 'hamlet@zulip.com',
        pathParameters: pathParamsOf(url),
        headers: { cookie: `sessionid=${browser.cookies.sessionid}` },
      });
      event.rawPath = url;
      expect((await serveHandler(event)).statusCode).toBe(200);
    });
  });
});

describe('GET /api/v1/user_uploads/{realm_id}/{path}: a temporary URL', () => {
  it('answers a temporary URL that serves the file without authentication', async () => {
    const url = await uploadAsHamlet();
    const body = expectSuccess(await temporaryUrl('hamlet@zulip.com', url));
    expect(body).toEqual({ result: 'success', msg: '', url: expect.stringMatching(/^\/user_uploads\/temporary\/[0-9A-F]+\/notes\.txt$/) });
    const response = await fetchTemporary(body.url);
    expect(response.statusCode).toBe(200);
    expect(Buffer.from(response.body, 'base64')).toEqual(BYTES);
  });

  it('answers the same refusals as the file itself', async () => {
    const url = await uploadAsHamlet();
    expectError(await temporaryUrl('othello@zulip.com', url), 'You are not authorized to view this file.', 403);
    expectError(await temporaryUrl('king@lear.org', url), 'File not found.', 404);
  });

  it('refuses an expired temporary URL with upstream\'s "Invalid token"', async () => {
    freezeClock(Date.now());
    const url = await uploadAsHamlet();
    const body = expectSuccess(await temporaryUrl('hamlet@zulip.com', url));
    advanceClock(61_000);
    const response = await fetchTemporary(body.url);
    expect({ status: response.statusCode, body: jsonOf(response) }).toEqual({
      status: 400,
      body: { result: 'error', msg: 'Invalid token', code: 'BAD_REQUEST' },
    });
  });

  it('refuses a forged token and a wrong file name', async () => {
    const url = await uploadAsHamlet();
    const body = expectSuccess(await temporaryUrl('hamlet@zulip.com', url));
    const [, , , token] = body.url.split('/');
    const forged = Buffer.from(
      Buffer.from(token, 'hex')
        .toString()
        .replace(/:(\d+):/, (_m, n) => `:${Number(n) + 1000}:`),
    ).toString('hex');
    expect(jsonOf(await fetchTemporary(`/user_uploads/temporary/${forged}/notes.txt`)).msg).toBe('Invalid token');
    expect(jsonOf(await fetchTemporary(`/user_uploads/temporary/${token}/other.txt`)).msg).toBe('Invalid filename');
  });
});

describe('claimAttachmentsForMessage and who may read a claimed file', () => {
  const claim = async (
    senderId: number,
    messageId: number,
    recipient: Parameters<typeof claimAttachmentsForMessage>[0]['recipient'],
    content: string,
  ) => claimAttachmentsForMessage({ realmId: 2, sender: (await usersStore.get(2, senderId))!, messageId, recipient, content });

  it("lets a direct message's recipients read the file, and nobody else", async () => {
    const url = await uploadAsHamlet();
    await claim(10, 9101, { kind: 'direct', recipientIds: [12] }, `here: ${url}`);
    expect((await fetchFile('othello@zulip.com', url)).statusCode).toBe(200);
    expect((await fetchFile('iago@zulip.com', url)).statusCode).toBe(403);
  });

  it('keeps a guest out of a file linked in a public channel the guest is not in', async () => {
    const url = await uploadAsHamlet();
    const denmark = (await channelsStore.getChannel(2, 1))!;
    await claim(10, 9102, { kind: 'channel', channel: denmark }, url);
    expect((await attachmentsStore.getAttachmentWithClaims(url.slice('/user_uploads/'.length)))?.attachment.isRealmPublic).toBe(true);
    expect((await fetchFile('polonius@zulip.com', url)).statusCode).toBe(403);
  });

  it("lets a private channel's subscribers who received the message read the file, not other members", async () => {
    const url = await uploadAsHamlet();
    const core = (await channelsStore.getChannel(2, 6))!;
    await putChannelMessage(
      { id: 9103, realmId: 2, senderId: 10, streamId: 6, topic: 'plans', content: url, dateSent: 1700009000 },
      [9, 10, 11],
    );
    await claim(10, 9103, { kind: 'channel', channel: core }, url);
    expect((await attachmentsStore.getAttachmentWithClaims(url.slice('/user_uploads/'.length)))?.attachment.isRealmPublic).toBe(false);
    expect((await fetchFile('iago@zulip.com', url)).statusCode).toBe(200);
    expect((await fetchFile('othello@zulip.com', url)).statusCode).toBe(403);
  });

  it("ignores a link to someone else's file that the sender may not read", async () => {
    const url = await uploadAsHamlet();
    const denmark = (await channelsStore.getChannel(2, 1))!;
    expect(await claim(12, 9104, { kind: 'channel', channel: denmark }, url)).toEqual([]);
    expect((await fetchFile('iago@zulip.com', url)).statusCode).toBe(403);
  });

  it("does not let another sender's public message make the file public", async () => {
    const url = await uploadAsHamlet();
    await claim(10, 9105, { kind: 'direct', recipientIds: [12] }, url);
    const denmark = (await channelsStore.getChannel(2, 1))!;
    expect(await claim(12, 9106, { kind: 'channel', channel: denmark }, url)).toEqual([url.slice('/user_uploads/'.length)]);
    expect((await attachmentsStore.getAttachmentWithClaims(url.slice('/user_uploads/'.length)))?.attachment.isRealmPublic).toBe(false);
    // Iago may read it through Othello's message in the public channel, Polonius (a guest outside it) not.
    expect((await fetchFile('iago@zulip.com', url)).statusCode).toBe(200);
    expect((await fetchFile('polonius@zulip.com', url)).statusCode).toBe(403);
  });

  it('ignores links into another organization and to files that do not exist', async () => {
    const url = await uploadAsHamlet();
    const king = (await usersStore.get(3, 20))!;
    const britain = (await channelsStore.getChannel(3, 10))!;
    expect(
      await claimAttachmentsForMessage({
        realmId: 3,
        sender: king,
        messageId: 9107,
        recipient: { kind: 'channel', channel: britain },
        content: url,
      }),
    ).toEqual([]);
    expect(await claim(10, 9108, { kind: 'direct', recipientIds: [12] }, 'http://localhost:3000/user_uploads/2/aa/missing/x.txt')).toEqual(
      [],
    );
  });

  it('finds absolute links and percent-encoded names, each file once', async () => {
    const url = await uploadAsHamlet('été.txt');
    const content = `[a](${url}) and again http://localhost:3000${url} and ![img](${url})`;
    expect(await claim(10, 9109, { kind: 'direct', recipientIds: [12] }, content)).toEqual([
      decodeURIComponent(url.slice('/user_uploads/'.length)),
    ]);
    expect((await fetchFile('othello@zulip.com', url)).statusCode).toBe(200);
  });
});
