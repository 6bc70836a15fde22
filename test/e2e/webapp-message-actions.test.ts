// Acting on a message in the web app (headless Chromium), two people in two browser contexts over
// HTTP through serverless-offline: a reaction from the emoji picker (Unicode and the organization's
// custom emoji) and a click on a reaction, seen live by the other; an edit and a delete of one's own
// message; what the menu offers by role; quote and reply, star, the message's link; read receipts,
// gone live when the organization turns them off; the sender's card. Each change is then read back
// through the API.
import type { Page } from 'playwright-core';
import { basicAuth } from '../helpers/api';
import { useBrowser } from '../helpers/browser';
import { useLocalService, zulipClient } from '../helpers/e2e';
import { menuItems, openMessageMenu, rowOf, settled, signIn } from '../helpers/webapp-pages';

const service = useLocalService();
const browser = useBrowser();

const HAMLET = 'hamlet@zulip.com';
const IAGO = 'iago@zulip.com';
const errors: string[] = [];
const GIF = new Uint8Array([...Buffer.from('GIF89a', 'latin1'), ...Array.from({ length: 64 }, (_, i) => (i * 7) % 256)]);

type Reaction = { emoji_name: string; emoji_code: string; reaction_type: string; user_id: number };

describe('e2e: acting on a message in the web app', () => {
  let hamletPage: Page;
  let iagoPage: Page;
  let hamletApi: any;
  let iagoApi: any;
  let denmark: number;
  let hamletId: number;
  let iagoId: number;

  const topicUrl = (topic: string) => `${service.origin}/#narrow/channel/${denmark}-Denmark/topic/${topic}`;
  const send = async (api: any, topic: string, content: string): Promise<number> =>
    (await api.messages.send({ type: 'stream', to: 'Denmark', topic, content })).id as number;
  const fetched = async (api: any, id: number) => (await api.callEndpoint(`/messages/${id}`, 'GET', {})) as any;
  const reactionsOf = async (id: number): Promise<Reaction[]> => (await fetched(hamletApi, id)).message.reactions;
  const reaction = (page: Page, id: number, name: string) => rowOf(page, id).locator(`.message_reaction[data-emoji-name="${name}"]`);

  beforeAll(async () => {
    hamletApi = await zulipClient(service, HAMLET);
    iagoApi = await zulipClient(service, IAGO);
    denmark = (await hamletApi.streams.retrieve()).streams.find((s: { name: string }) => s.name === 'Denmark').stream_id;
    const users = (await hamletApi.users.retrieve()).members as { email: string; user_id: number }[];
    hamletId = users.find((u) => u.email === HAMLET)!.user_id;
    iagoId = users.find((u) => u.email === IAGO)!.user_id;
    hamletPage = await browser.newPersonPage();
    iagoPage = await browser.newPersonPage();
    await signIn(hamletPage, service.origin, HAMLET, errors);
    await signIn(iagoPage, service.origin, IAGO, errors);
  }, 120000);

  afterAll(() => {
    expect(errors).toEqual([]);
  });

  it('adds a reaction from the picker, shows it to the other person live, and toggles it on a click', async () => {
    const id = await send(hamletApi, 'reactions', 'React to this');
    await hamletPage.goto(topicUrl('reactions'));
    await iagoPage.goto(topicUrl('reactions'));
    await rowOf(iagoPage, id).hover();
    await rowOf(iagoPage, id).locator('.emoji-message-control-button').click();
    await iagoPage.fill('#emoji-picker .emoji-popover-filter', 'octo');
    await browser.screenshot(iagoPage, 'webapp-emoji-picker');
    await iagoPage.click('#emoji-picker .emoji-popover-emoji[data-emoji-name="octopus"]');
    await iagoPage.locator('#emoji-picker').waitFor({ state: 'detached' });

    await reaction(hamletPage, id, 'octopus')
      .filter({ hasText: /^\S*\s*1$/ })
      .waitFor();
    expect(await reactionsOf(id)).toEqual([
      { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: iagoId },
    ]);

    await reaction(hamletPage, id, 'octopus').click();
    await reaction(iagoPage, id, 'octopus').filter({ hasText: /2$/ }).waitFor();
    // Each page shows its own click when its own event arrives, which may be after the other page's.
    await rowOf(hamletPage, id).locator('.message_reaction[data-emoji-name="octopus"][aria-pressed="true"]').waitFor();
    expect((await reactionsOf(id)).map((r) => r.user_id).sort()).toEqual([hamletId, iagoId].sort());

    await reaction(iagoPage, id, 'octopus').click();
    await reaction(hamletPage, id, 'octopus').filter({ hasText: /1$/ }).waitFor();
    await rowOf(iagoPage, id).locator('.message_reaction[data-emoji-name="octopus"][aria-pressed="false"]').waitFor();
    expect((await reactionsOf(id)).map((r) => r.user_id)).toEqual([hamletId]);
  }, 90000);

  it("offers the organization's custom emoji in the picker, live after its upload", async () => {
    const key = (await service.request('POST', '/dev_fetch_api_key', { params: { username: IAGO } })).body.api_key as string;
    const form = new FormData();
    form.append('file-0', new Blob([GIF], { type: 'image/gif' }), 'parrot.gif');
    const uploaded = await fetch(`${service.baseUrl}/realm/emoji/party_parrot`, {
      method: 'POST',
      headers: { authorization: basicAuth(IAGO, key) },
      body: form,
    });
    expect(uploaded.status).toBe(200);
    const id = await send(hamletApi, 'reactions', 'A parrot, please');
    await rowOf(iagoPage, id).hover();
    await rowOf(iagoPage, id).locator('.emoji-message-control-button').click();
    await iagoPage.fill('#emoji-picker .emoji-popover-filter', 'parrot');
    await iagoPage.click('#emoji-picker .emoji-popover-emoji[data-emoji-name="party_parrot"]');
    await reaction(hamletPage, id, 'party_parrot').locator('img.emoji').waitFor();
    expect(await reactionsOf(id)).toEqual([
      { emoji_name: 'party_parrot', emoji_code: expect.any(String), reaction_type: 'realm_emoji', user_id: iagoId },
    ]);
  }, 90000);

  it("edits and deletes one's own message, seen by the other person; the menu offers each only where the role allows", async () => {
    const id = await send(hamletApi, 'edits', 'A typo heer');
    const iagos = await send(iagoApi, 'edits', 'Iago speaks');
    await hamletPage.goto(topicUrl('edits'));
    await iagoPage.goto(topicUrl('edits'));

    await openMessageMenu(hamletPage, iagos);
    expect(await menuItems(hamletPage)).not.toEqual(expect.arrayContaining(['Edit message']));
    expect(await menuItems(hamletPage)).not.toEqual(expect.arrayContaining(['Delete message']));
    await hamletPage.keyboard.press('Escape');
    await openMessageMenu(iagoPage, id);
    expect(await menuItems(iagoPage)).toEqual(expect.arrayContaining(['Delete message']));
    expect(await menuItems(iagoPage)).not.toEqual(expect.arrayContaining(['Edit message']));
    await iagoPage.keyboard.press('Escape');

    await openMessageMenu(hamletPage, id);
    await browser.screenshot(hamletPage, 'webapp-message-menu');
    await hamletPage.getByRole('menuitem', { name: 'Edit message' }).click();
    const editor = hamletPage.locator('#message-edit-dialog textarea');
    await editor.and(hamletPage.locator(':enabled')).waitFor();
    expect(await editor.inputValue()).toBe('A typo heer');
    await editor.fill('No typo **here**');
    await browser.screenshot(hamletPage, 'webapp-edit-dialog');
    await hamletPage.click('#message-edit-dialog .message_edit_save');
    await rowOf(iagoPage, id).filter({ hasText: 'No typo here' }).filter({ hasText: 'EDITED' }).waitFor();
    expect((await fetched(iagoApi, id)).message.content).toBe('<p>No typo <strong>here</strong></p>');

    await openMessageMenu(hamletPage, id);
    await hamletPage.getByRole('menuitem', { name: 'Delete message' }).click();
    await browser.screenshot(hamletPage, 'webapp-delete-dialog');
    await hamletPage.click('#delete-message-dialog .dialog_submit');
    await rowOf(iagoPage, id).waitFor({ state: 'detached' });
    await expect(fetched(iagoApi, id)).resolves.toMatchObject({ result: 'error', msg: 'Invalid message(s)' });
  }, 90000);

  it('quotes and replies, stars, and copies the link to a message', async () => {
    const id = await send(hamletApi, 'quotes', 'Quote *me*');
    await iagoPage.goto(topicUrl('quotes'));
    await openMessageMenu(iagoPage, id);
    await iagoPage.getByRole('menuitem', { name: 'Quote and reply' }).click();
    const compose = iagoPage.locator('#compose-textarea');
    await compose.and(iagoPage.locator(':focus')).waitFor();
    const link = `${service.origin}/#narrow/channel/${denmark}-Denmark/topic/quotes/near/${id}`;
    expect(await compose.inputValue()).toBe(`@_**King Hamlet|${hamletId}** [said](${link}):\n\`\`\`quote\nQuote *me*\n\`\`\`\n`);
    await compose.press('Enter');
    await hamletPage.goto(topicUrl('quotes'));
    await hamletPage.locator('.message_row blockquote', { hasText: 'Quote me' }).waitFor();

    await openMessageMenu(iagoPage, id);
    await iagoPage.getByRole('menuitem', { name: 'Star message' }).click();
    await rowOf(iagoPage, id).locator('.star.starred').waitFor();
    expect((await fetched(iagoApi, id)).message.flags).toContain('starred');

    await iagoPage.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.origin });
    await openMessageMenu(iagoPage, id);
    await iagoPage.getByRole('menuitem', { name: 'Copy link to message' }).click();
    expect(await iagoPage.evaluate('navigator.clipboard.readText()')).toBe(link);
  }, 90000);

  it('lists who read a message, and hides read receipts live when the organization turns them off', async () => {
    const id = await send(hamletApi, 'receipts', 'Did you read this?');
    await iagoPage.goto(topicUrl('receipts'));
    await rowOf(iagoPage, id).waitFor();
    expect(
      await settled(
        async () => (await hamletApi.callEndpoint(`/messages/${id}/read_receipts`, 'GET', {})).user_ids,
        (v) => v.includes(iagoId),
      ),
    ).toContain(iagoId);
    await hamletPage.goto(topicUrl('receipts'));
    await openMessageMenu(hamletPage, id);
    await hamletPage.getByRole('menuitem', { name: 'View read receipts' }).click();
    await hamletPage.locator(`#read-receipts-dialog li[data-user-id="${iagoId}"]`, { hasText: 'Iago' }).waitFor();
    await browser.screenshot(hamletPage, 'webapp-read-receipts');
    await hamletPage.keyboard.press('Escape');

    expect(await iagoApi.callEndpoint('/realm', 'PATCH', { enable_read_receipts: 'false' })).toMatchObject({ result: 'success' });
    const items = async () => {
      await openMessageMenu(hamletPage, id);
      const shown = await menuItems(hamletPage);
      await hamletPage.keyboard.press('Escape');
      return shown;
    };
    expect(await settled(items, (v) => !v.includes('View read receipts'))).not.toContain('View read receipts');
  }, 90000);

  it("opens the sender's card with their role, email and status, and a direct message from it", async () => {
    expect(await hamletApi.callEndpoint('/users/me/status', 'POST', { status_text: 'at lunch' })).toMatchObject({ result: 'success' });
    const id = await send(hamletApi, 'cards', 'Who am I?');
    await iagoPage.goto(topicUrl('cards'));
    await rowOf(iagoPage, id).locator('.sender_name').click();
    const card = iagoPage.locator('#user-card-popover');
    await card.filter({ hasText: 'at lunch' }).waitFor();
    expect(await card.locator('.user_card_name').innerText()).toBe('King Hamlet');
    expect(await card.locator('.user_card_role').innerText()).toBe('Member');
    expect(await card.locator('.user_card_email').innerText()).toBe(HAMLET);
    await browser.screenshot(iagoPage, 'webapp-user-card');
    await card.getByRole('button', { name: 'Send direct message' }).click();
    await iagoPage.waitForURL(`${service.origin}/#narrow/dm/${hamletId}-King-Hamlet`);
    expect(await iagoPage.inputValue('#private_message_recipient')).toBe(HAMLET);
  }, 90000);
});
