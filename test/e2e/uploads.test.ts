// File uploads over HTTP through serverless-offline and the local S3 store: a multipart upload
// (zulip-js has no upload helper, so it goes through fetch with Node's FormData, as a browser
// sends it), the file at the site root for its uploader, the temporary URL the mobile app asks
// zulip-js-style for and opens without credentials, and the refusals for everyone else.
import { basicAuth } from '../helpers/api';
import { useLocalService, zulipClient } from '../helpers/e2e';

const service = useLocalService();

const apiKeyOf = async (email: string): Promise<string> => {
  const result = await service.request('POST', '/dev_fetch_api_key', { params: { username: email } });
  return result.body.api_key as string;
};

const BYTES = new Uint8Array(Array.from({ length: 1024 }, (_, i) => (i * 7) % 256));

describe('e2e: uploading a file and fetching it', () => {
  it('uploads a binary file that its uploader fetches byte for byte, and others cannot', async () => {
    const hamletAuth = basicAuth('hamlet@zulip.com', await apiKeyOf('hamlet@zulip.com'));
    const form = new FormData();
    form.append('file', new Blob([BYTES], { type: 'image/png' }), 'photo.png');
    const uploaded = await fetch(`${service.baseUrl}/user_uploads`, { method: 'POST', headers: { authorization: hamletAuth }, body: form });
    const body = (await uploaded.json()) as { url: string };
    expect({ status: uploaded.status, body }).toEqual({
      status: 200,
      body: {
        result: 'success',
        msg: '',
        url: expect.stringMatching(/^\/user_uploads\/2\/.+\/photo\.png$/),
        uri: body.url,
        filename: 'photo.png',
      },
    });

    const file = await fetch(`${service.origin}${body.url}`, { headers: { authorization: hamletAuth } });
    expect({ status: file.status, type: file.headers.get('content-type'), disposition: file.headers.get('content-disposition') }).toEqual({
      status: 200,
      type: 'image/png',
      disposition: 'inline; filename="photo.png"',
    });
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(BYTES);

    // The mobile app asks for a temporary URL through the API and opens it without credentials.
    const hamlet = await zulipClient(service, 'hamlet@zulip.com');
    const temporary = await hamlet.callEndpoint(body.url, 'GET', {});
    expect(temporary).toEqual({
      result: 'success',
      msg: '',
      url: expect.stringMatching(/^\/user_uploads\/temporary\/[0-9A-F]+\/photo\.png$/),
    });
    const opened = await fetch(`${service.origin}${temporary.url}`);
    expect(opened.status).toBe(200);
    expect(new Uint8Array(await opened.arrayBuffer())).toEqual(BYTES);

    // Othello: no message links the file yet. King Lear: another organization.
    const othello = await fetch(`${service.origin}${body.url}`, {
      headers: { authorization: basicAuth('othello@zulip.com', await apiKeyOf('othello@zulip.com')) },
    });
    expect({ status: othello.status, body: await othello.json() }).toEqual({
      status: 403,
      body: { result: 'error', msg: 'You are not authorized to view this file.', code: 'BAD_REQUEST' },
    });
    const king = await fetch(`${service.origin}${body.url}`, {
      headers: { authorization: basicAuth('king@lear.org', await apiKeyOf('king@lear.org')) },
    });
    expect({ status: king.status, body: await king.json() }).toEqual({
      status: 404,
      body: { result: 'error', msg: 'File not found.', code: 'BAD_REQUEST' },
    });
  });

  it("answers upstream's error to a request without a file", async () => {
    const form = new FormData();
    form.append('note', 'no file here');
    const response = await fetch(`${service.baseUrl}/user_uploads`, {
      method: 'POST',
      headers: { authorization: basicAuth('hamlet@zulip.com', await apiKeyOf('hamlet@zulip.com')) },
      body: form,
    });
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 400,
      body: { result: 'error', msg: 'You must specify a file to upload', code: 'BAD_REQUEST' },
    });
  });
});
