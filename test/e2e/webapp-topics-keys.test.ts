// Acting on a topic, and the keyboard, in the web app (headless Chromium), two people in two browser
// contexts over HTTP through serverless-offline: resolving and unresolving a topic and moving it to
// another channel (with the notices chosen), seen by the other person; following, muting and
// marking a topic read; upstream's shortcuts; browser notifications for a DM and a mention while
// the page is hidden, with the person's settings applied. Each change is read back through the API.
import type { Page } from 'playwright-core';
import { useBrowser } from '../helpers/browser';
import { useLocalService, zulipClient } from '../helpers/e2e';
import { rowOf, settled, signIn } from '../helpers/webapp-pages';

const service = useLocalService();
const browser = useBrowser();

const HAMLET = 'hamlet@zulip.com';
const IAGO = 'iago@zulip.com';
const errors: string[] = [];

// Run in the page before the app: a visibility the test sets (window.__hidden) and a Notification
// that records what the app shows (window.__notes), as a hidden tab with notifications allowed.
const PAGE_STUBS = `
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (window.__hidden ? 'hidden' : 'visible') });
  window.__notes = [];
  window.Notification = class {
    static permission = 'granted';
    static requestPermission() { return Promise.resolve('granted'); }
    constructor(title, options) { window.__notes.push({ title, body: options.body }); }
    close() {}
  };
`;

describe('e2e: topics and the keyboard in the web app', () => {
  let hamletPage: Page;
  let iagoPage: Page;
  let hamletApi: any;
  let iagoApi: any;
  let denmark: number;
  let verona: number;
  let iagoId: number;
  let hamletId: number;

  const topicUrl = (topic: string, streamId = denmark, name = 'Denmark') =>
    `${service.origin}/#narrow/channel/${streamId}-${name}/topic/${encodeURIComponent(topic).replace(/\./g, '%2E').replace(/%/g, '.')}`;
  const send = async (topic: string, content: string): Promise<number> =>
    (await hamletApi.messages.send({ type: 'stream', to: 'Denmark', topic, content })).id as number;
  const fetched = async (api: any, id: number) => (await api.callEndpoint(`/messages/${id}`, 'GET', {})).message;
  const topicMenu = async (page: Page, id: number) => {
    await page.locator(`.feed-item:has(.message_row[data-message-id="${id}"]) .topic_menu_button`).click();
    await page.locator('#topic-actions-menu').waitFor();
  };
  const policyOf = async (topic: string): Promise<number | undefined> => {
    const state = await iagoApi.callEndpoint('/register', 'POST', { fetch_event_types: JSON.stringify(['user_topic']) });
    return (state.user_topics as { stream_id: number; topic_name: string; visibility_policy: number }[]).find(
      (t) => t.stream_id === denmark && t.topic_name === topic,
    )?.visibility_policy;
  };
  const notes = (page: Page) => page.evaluate('window.__notes') as Promise<{ title: string; body: string }[]>;

  beforeAll(async () => {
    hamletApi = await zulipClient(service, HAMLET);
    iagoApi = await zulipClient(service, IAGO);
    const streams = (await hamletApi.streams.retrieve()).streams as { name: string; stream_id: number }[];
    denmark = streams.find((s) => s.name === 'Denmark')!.stream_id;
    verona = streams.find((s) => s.name === 'Verona')!.stream_id;
    const users = (await hamletApi.users.retrieve()).members as { email: string; user_id: number }[];
    iagoId = users.find((u) => u.email === IAGO)!.user_id;
    hamletId = users.find((u) => u.email === HAMLET)!.user_id;
    hamletPage = await browser.newPersonPage();
    iagoPage = await browser.newPersonPage();
    await iagoPage.addInitScript(PAGE_STUBS);
    await signIn(hamletPage, service.origin, HAMLET, errors);
    await signIn(iagoPage, service.origin, IAGO, errors);
  }, 120000);

  afterAll(() => {
    expect(errors).toEqual([]);
  });

  it('resolves and unresolves a topic, seen by the other person', async () => {
    const id = await send('flaky test', 'It fails on Tuesdays');
    await hamletPage.goto(`${service.origin}/#narrow/channel/${denmark}-Denmark`);
    await iagoPage.goto(topicUrl('flaky test'));
    await topicMenu(iagoPage, id);
    await browser.screenshot(iagoPage, 'webapp-topic-menu');
    await iagoPage.getByRole('menuitem', { name: 'Mark as resolved' }).click();
    await iagoPage.waitForURL(topicUrl('✔ flaky test'));
    await hamletPage.locator(`.feed-item:has([data-message-id="${id}"]) .stream_topic`, { hasText: '✔ flaky test' }).waitFor();
    expect((await fetched(hamletApi, id)).subject).toBe('✔ flaky test');

    await topicMenu(iagoPage, id);
    await iagoPage.getByRole('menuitem', { name: 'Mark as unresolved' }).click();
    await hamletPage.locator(`.feed-item:has([data-message-id="${id}"]) .stream_topic`, { hasText: /^flaky test$/ }).waitFor();
    expect((await fetched(hamletApi, id)).subject).toBe('flaky test');
  }, 90000);

  it('moves a topic to another channel with a notice in the new topic only, seen by the other person', async () => {
    const id = await send('wrong place', 'This belongs in Verona');
    await iagoPage.goto(topicUrl('wrong place'));
    await topicMenu(iagoPage, id);
    await iagoPage.getByRole('menuitem', { name: 'Move or rename topic…' }).click();
    await iagoPage.selectOption('#move_topic_channel', String(verona));
    await iagoPage.fill('#move_topic_name', 'right place');
    await iagoPage.uncheck('input[name="send_notification_to_old_thread"]');
    await browser.screenshot(iagoPage, 'webapp-move-topic');
    await iagoPage.click('#move-topic-dialog .dialog_submit');
    await iagoPage.waitForURL(topicUrl('right place', verona, 'Verona'));

    await hamletPage.goto(topicUrl('right place', verona, 'Verona'));
    await rowOf(hamletPage, id).waitFor();
    expect(await fetched(hamletApi, id)).toMatchObject({ stream_id: verona, subject: 'right place' });
    const inTopic = async (streamId: number, topic: string) =>
      (
        await hamletApi.messages.retrieve({
          anchor: 'newest',
          num_before: 10,
          num_after: 0,
          narrow: [
            { operator: 'channel', operand: streamId },
            { operator: 'topic', operand: topic },
          ],
        })
      ).messages as { id: number; sender_email: string }[];
    expect(await inTopic(denmark, 'wrong place')).toEqual([]);
    const moved = await inTopic(verona, 'right place');
    expect(moved.map((m) => m.id)).toContain(id);
    expect(moved.filter((m) => m.id !== id).map((m) => m.sender_email)).toEqual([expect.stringMatching(/^notification-bot@/)]);
  }, 90000);

  it('follows, mutes and marks a topic read from its menu', async () => {
    const ids = [await send('busy topic', 'one'), await send('busy topic', 'two')];
    await iagoPage.evaluate('window.__hidden = true');
    await iagoPage.goto(topicUrl('busy topic'));
    await rowOf(iagoPage, ids[1]!).waitFor();
    expect((await fetched(iagoApi, ids[0]!)).flags).not.toContain('read');

    await topicMenu(iagoPage, ids[0]!);
    await iagoPage.getByRole('menuitem', { name: 'Mark all messages as read' }).click();
    expect(
      await settled(
        async () => (await fetched(iagoApi, ids[1]!)).flags,
        (v) => v.includes('read'),
      ),
    ).toContain('read');
    expect((await fetched(iagoApi, ids[0]!)).flags).toContain('read');
    await iagoPage.evaluate('window.__hidden = false');

    await topicMenu(iagoPage, ids[0]!);
    await iagoPage.getByRole('menuitem', { name: 'Follow topic' }).click();
    expect(
      await settled(
        () => policyOf('busy topic'),
        (v) => v === 3,
      ),
    ).toBe(3);
    await topicMenu(iagoPage, ids[0]!);
    await iagoPage.getByRole('menuitem', { name: 'Mute topic' }).click();
    expect(
      await settled(
        () => policyOf('busy topic'),
        (v) => v === 1,
      ),
    ).toBe(1);
    await topicMenu(iagoPage, ids[0]!);
    await iagoPage.getByRole('menuitem', { name: 'Unmute topic' }).click();
    expect(
      await settled(
        () => policyOf('busy topic'),
        (v) => v === undefined,
      ),
    ).toBeUndefined();
  }, 90000);

  it("follows upstream's shortcuts: j/k, r, c, x, /, ?, Esc and n", async () => {
    const ids = [await send('keys', 'first key'), await send('keys', 'second key')];
    await iagoPage.goto(topicUrl('keys'));
    await rowOf(iagoPage, ids[1]!).waitFor();
    const selected = () => iagoPage.locator('.message_row.selected_message').getAttribute('data-message-id');
    const focused = () => iagoPage.evaluate('document.activeElement && document.activeElement.id');
    await iagoPage.locator('body').press('j');
    const first = Number(await selected());
    await iagoPage.keyboard.press('j');
    expect(Number(await selected())).toBeGreaterThan(first);
    await iagoPage.keyboard.press('k');
    expect(Number(await selected())).toBe(first);

    await iagoPage.keyboard.press('r');
    expect(await settled(focused, (v) => v === 'compose-textarea')).toBe('compose-textarea');
    await iagoPage.keyboard.press('Escape');
    expect(await focused()).not.toBe('compose-textarea');
    await iagoPage.keyboard.press('c');
    expect(await settled(focused, (v) => v === 'stream_message_recipient_topic')).toBe('stream_message_recipient_topic');
    expect(await iagoPage.inputValue('#stream_message_recipient_topic')).toBe('');
    await iagoPage.keyboard.press('Escape');
    await iagoPage.keyboard.press('x');
    expect(await settled(focused, (v) => v === 'private_message_recipient')).toBe('private_message_recipient');
    await iagoPage.keyboard.press('Escape');
    await iagoPage.keyboard.press('/');
    expect(await focused()).toBe('search_query');
    await iagoPage.keyboard.press('Escape');

    await iagoPage.keyboard.press('?');
    await iagoPage.locator('#keyboard-shortcuts').waitFor();
    await browser.screenshot(iagoPage, 'webapp-shortcuts');
    await iagoPage.keyboard.press('Escape');
    await iagoPage.locator('#keyboard-shortcuts').waitFor({ state: 'detached' });

    // Nothing else unread, so that n has one place to go.
    expect(await iagoApi.callEndpoint('/mark_all_as_read', 'POST', {})).toMatchObject({ result: 'success' });
    const next = await send('next one', 'unread, for n');
    await iagoPage.goto(topicUrl('keys'));
    await rowOf(iagoPage, ids[1]!).waitFor();
    await iagoPage.keyboard.press('n');
    await iagoPage.waitForURL(topicUrl('next one'));
    await rowOf(iagoPage, next).waitFor();
    expect(
      await settled(
        async () => (await fetched(iagoApi, next)).flags,
        (v) => v.includes('read'),
      ),
    ).toContain('read');
  }, 90000);

  it('notifies of a DM and a mention while the page is hidden, as the settings say', async () => {
    await iagoPage.goto(`${service.origin}/#inbox`);
    await iagoPage.evaluate('window.__hidden = true; window.__notes = []');
    await hamletApi.messages.send({ type: 'direct', to: [iagoId], content: 'psst' });
    expect(
      await settled(
        () => notes(iagoPage),
        (v) => v.length >= 1,
      ),
    ).toEqual([{ title: 'King Hamlet', body: 'psst' }]);
    await send('mentions', '@**Iago** look');
    expect(
      await settled(
        async () => (await notes(iagoPage)).length,
        (v) => v === 2,
      ),
    ).toBe(2);
    expect((await notes(iagoPage))[1]).toEqual({ title: 'King Hamlet (#Denmark > mentions)', body: '@Iago look' });

    expect(await iagoApi.callEndpoint('/settings', 'PATCH', { pm_content_in_desktop_notifications: 'false' })).toMatchObject({
      result: 'success',
    });
    await hamletApi.messages.send({ type: 'direct', to: [iagoId], content: 'secret' });
    expect(
      (
        await settled(
          () => notes(iagoPage),
          (v) => v.length >= 3,
        )
      )[2],
    ).toEqual({ title: 'King Hamlet', body: 'New direct message' });

    expect(await iagoApi.callEndpoint('/settings', 'PATCH', { enable_desktop_notifications: 'false' })).toMatchObject({
      result: 'success',
    });
    // The DM's unread count rises in the same step that would have notified.
    const badge = iagoPage.locator(`#direct-messages-list [data-user-ids-string="${hamletId}"] .unread_count`);
    const before = Number(await badge.innerText());
    await hamletApi.messages.send({ type: 'direct', to: [iagoId], content: 'quiet' });
    await badge.filter({ hasText: new RegExp(`^${before + 1}$`) }).waitFor();
    expect(await notes(iagoPage)).toHaveLength(3);
    await iagoPage.evaluate('window.__hidden = false');
  }, 90000);
});
