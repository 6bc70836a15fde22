// Custom emoji over HTTP through serverless-offline and the local S3 store: an upload as the web app
// sends it (multipart, a name with a space), the list through zulip-js, the image at its source_url
// at the site root without credentials, a reaction with the emoji by name through zulip-js arriving
// on another user's queue, and the deactivation.
import { basicAuth } from '../helpers/api';
import { pollingQueue, useLocalService, zulipClient } from '../helpers/e2e';

const service = useLocalService();

const GIF = new Uint8Array([...Buffer.from('GIF89a', 'latin1'), ...Array.from({ length: 256 }, (_, i) => (i * 7) % 256)]);

describe('e2e: custom emoji', () => {
  it('uploads, lists, serves, reacts with and deactivates an emoji', async () => {
    const key = (await service.request('POST', '/dev_fetch_api_key', { params: { username: 'hamlet@zulip.com' } })).body.api_key as string;
    const authorization = basicAuth('hamlet@zulip.com', key);
    const form = new FormData();
    form.append('file-0', new Blob([GIF], { type: 'image/gif' }), 'parrot.gif');
    const uploaded = await fetch(`${service.baseUrl}/realm/emoji/party%20parrot`, {
      method: 'POST',
      headers: { authorization },
      body: form,
    });
    expect({ status: uploaded.status, body: await uploaded.json() }).toEqual({ status: 200, body: { result: 'success', msg: '' } });

    const hamlet = await zulipClient(service, 'hamlet@zulip.com');
    const { emoji } = (await hamlet.emojis.retrieve()) as { emoji: Record<string, { id: string; name: string; source_url: string }> };
    const parrot = Object.values(emoji).find((e) => e.name === 'party_parrot')!;
    expect(parrot).toMatchObject({
      deactivated: false,
      author_id: 10,
      source_url: expect.stringMatching(/^\/user_avatars\/2\/emoji\/images\/[0-9a-f]{16}\.gif$/),
    });
    const image = await fetch(`${service.origin}${parrot.source_url}`);
    expect({ status: image.status, type: image.headers.get('content-type') }).toEqual({ status: 200, type: 'image/gif' });
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(GIF);

    const iago = await zulipClient(service, 'iago@zulip.com');
    const { poll } = await pollingQueue(iago, { event_types: ['reaction'] });
    // Message 6 of the development data: Hamlet's, in Verona, which Iago is subscribed to.
    expect(await hamlet.reactions.add({ message_id: 6, emoji_name: 'party_parrot' })).toEqual({ result: 'success', msg: '' });
    expect(await poll()).toEqual([
      {
        type: 'reaction',
        op: 'add',
        user_id: 10,
        message_id: 6,
        emoji_name: 'party_parrot',
        emoji_code: parrot.id,
        reaction_type: 'realm_emoji',
      },
    ]);

    const removed = await fetch(`${service.baseUrl}/realm/emoji/party_parrot`, { method: 'DELETE', headers: { authorization } });
    expect({ status: removed.status, body: await removed.json() }).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    const again = await fetch(`${service.baseUrl}/realm/emoji/party_parrot`, { method: 'DELETE', headers: { authorization } });
    expect({ status: again.status, body: await again.json() }).toEqual({
      status: 404,
      body: { result: 'error', msg: "Emoji 'party_parrot' does not exist", code: 'BAD_REQUEST' },
    });
  });
});
