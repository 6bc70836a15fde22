// Usable by everyone (issue 38, item 8): axe-core, run in the page by Chromium, finds no serious or
// critical violation in any view, menu or dialog of the web app, nor on the sign-in page; and the
// keyboard reaches the controls with a focus that can be seen.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { useBrowser } from '../helpers/browser';
import { useLocalService, zulipClient } from '../helpers/e2e';
import { openMessageMenu, row, rowOf, signIn as signInAt } from '../helpers/webapp-pages';

const service = useLocalService();
const browser = useBrowser();

const HAMLET = 'hamlet@zulip.com';
const IAGO = 'iago@zulip.com';
const errors: string[] = [];
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/** axe's serious and critical violations on the page as it is (WCAG 2.1 A and AA rules and axe's best practices). */
const seriousViolations = async (page: Page): Promise<string[]> => {
  // Evaluated through the DevTools protocol: the page's Content-Security-Policy refuses an inline script.
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(AXE);
  const violations = (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))`,
  )) as Violation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id} (${v.help}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
};

describe('e2e: the web app for everyone (axe-core in Chromium, the keyboard)', () => {
  let page: Page;
  let denmark: number;
  let iagoId: number;
  let messageId: number;

  beforeAll(async () => {
    const api = await zulipClient(service, HAMLET);
    const iagoApi = await zulipClient(service, IAGO);
    denmark = (await api.streams.getStreamId('Denmark')).stream_id;
    iagoId = ((await api.users.retrieve()).members as { email: string; user_id: number }[]).find((u) => u.email === IAGO)!.user_id;
    messageId = (await iagoApi.messages.send({ type: 'stream', to: 'Denmark', topic: 'for everyone', content: 'Readable by all :smile:' }))
      .id;
    await api.callEndpoint(`/messages/${messageId}/reactions`, 'POST', { emoji_name: 'smile' });
    page = await browser.newPersonPage();
    await page.goto(`${service.origin}/login/`);
    expect(await seriousViolations(page)).toEqual([]);
    await signInAt(page, service.origin, HAMLET, errors);
  }, 120000);

  afterAll(() => {
    expect(errors).toEqual([]);
  });

  const topicUrl = () => `${service.origin}/#narrow/channel/${denmark}-Denmark/topic/for.20everyone`;

  it.each([
    ['the inbox', '#inbox', '#inbox-main'],
    ['the combined feed', '#feed', '#message_feed_container'],
    ['a channel', () => `#narrow/channel/${denmark}-Denmark`, '.message_row'],
    ['a direct message conversation', () => `#narrow/dm/${iagoId}-Iago`, '#compose-textarea'],
    ['a search by sender', () => `#narrow/sender/${iagoId}-Iago`, '.message_row'],
  ])(
    'finds no serious violation in %s',
    async (_name, hash, ready) => {
      await page.goto(`${service.origin}/${typeof hash === 'function' ? hash() : hash}`);
      await page.locator(ready).first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    },
    60000,
  );

  it('finds none in the message menu, the emoji picker, the user card and the topic menu', async () => {
    await page.goto(topicUrl());
    const message = row(page, 'Readable by all');
    await message.waitFor();
    const found: Record<string, string[]> = {};
    await message.hover();
    await message.locator('.message-actions-menu-button').click();
    await page.locator('#message-actions-menu').waitFor();
    found.menu = await seriousViolations(page);
    await page.keyboard.press('Escape');
    await message.hover();
    await message.locator('.emoji-message-control-button').click();
    await page.locator('#emoji-picker').waitFor();
    found.picker = await seriousViolations(page);
    await page.keyboard.press('Escape');
    await message.locator('.sender_name').click();
    await page.locator('#user-card-popover').waitFor();
    found.card = await seriousViolations(page);
    await page.keyboard.press('Escape');
    await page.locator('.topic_menu_button').first().click();
    await page.locator('#topic-actions-menu').waitFor();
    found.topic = await seriousViolations(page);
    await page.keyboard.press('Escape');
    expect(found).toEqual({ menu: [], picker: [], card: [], topic: [] });
  }, 60000);

  it('finds none in the edit, delete, read receipts and move topic dialogs', async () => {
    const api = await zulipClient(service, HAMLET);
    const sent = await api.messages.send({ type: 'stream', to: 'Denmark', topic: 'for everyone', content: 'Mine to edit' });
    expect(sent).toMatchObject({ result: 'success' });
    const own = sent.id as number;
    await page.goto(topicUrl());
    await rowOf(page, own).waitFor();
    const found: Record<string, string[]> = {};
    for (const [name, item, dialog] of [
      ['edit', 'Edit message', '#message-edit-dialog'],
      ['delete', 'Delete message', '#delete-message-dialog'],
      ['receipts', 'View read receipts', '#read-receipts-dialog'],
    ] as const) {
      await openMessageMenu(page, own);
      await page.getByRole('menuitem', { name: item }).click();
      await page.locator(dialog).waitFor();
      found[name] = await seriousViolations(page);
      await page.keyboard.press('Escape');
      await page.locator(dialog).waitFor({ state: 'detached' });
    }
    await page.locator('.topic_menu_button').first().click();
    await page.getByRole('menuitem', { name: 'Move or rename topic…' }).click();
    await page.locator('#move-topic-dialog').waitFor();
    found.move = await seriousViolations(page);
    await browser.screenshot(page, 'webapp-move-topic-dialog');
    await page.keyboard.press('Escape');
    expect(found).toEqual({ edit: [], delete: [], receipts: [], move: [] });
  }, 90000);

  it('finds none in the keyboard shortcuts and in each settings section', async () => {
    await page.goto(`${service.origin}/#feed`);
    await page.locator('#message_feed_container').waitFor();
    await page.keyboard.press('?');
    await page.locator('#keyboard-shortcuts').waitFor();
    const found: Record<string, string[]> = { shortcuts: await seriousViolations(page) };
    await page.keyboard.press('Escape');
    for (const section of ['profile', 'account-and-privacy', 'preferences', 'notifications', 'muted-users']) {
      await page.goto(`${service.origin}/#settings/${section}`);
      await page.locator('#settings_page').waitFor();
      await page.waitForTimeout(300);
      found[section] = await seriousViolations(page);
    }
    await page.keyboard.press('Escape');
    expect(found).toEqual({ shortcuts: [], profile: [], 'account-and-privacy': [], preferences: [], notifications: [], 'muted-users': [] });
  }, 90000);

  it('finds none in the dark theme either (the system asks for dark, the setting follows the system)', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      const found: Record<string, string[]> = {};
      await page.goto(topicUrl());
      await row(page, 'Readable by all').waitFor();
      found.topic = await seriousViolations(page);
      await browser.screenshot(page, 'webapp-dark-topic');
      await page.goto(`${service.origin}/#settings/preferences`);
      await page.locator('#settings_page').waitFor();
      found.settings = await seriousViolations(page);
      await page.keyboard.press('Escape');
      expect(found).toEqual({ topic: [], settings: [] });
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
  }, 60000);

  it('finds none in the administration sections and their dialogs, nor in signing out of other sessions, light or dark', async () => {
    const iago = await browser.newPersonPage();
    await signInAt(iago, service.origin, IAGO, errors);
    const iagoApi = await zulipClient(service, IAGO);
    await iagoApi.callEndpoint('/realm/filters', 'POST', { pattern: 'T(?P<id>[0-9]+)', url_template: 'https://example.com/{id}' });
    await iagoApi.callEndpoint('/default_streams', 'POST', { stream_id: denmark });
    const found: Record<string, string[]> = {};
    /** Each section (by its hash), and the dialog its first row's control opens. */
    const SECTIONS: [string, string, string][] = [
      ['organization/emoji-settings', '.add-emoji-form', ''],
      ['organization/linkifier-settings', '.linkifiers-table', 'Edit T(?P<id>[0-9]+)'],
      ['organization/profile-field-settings', '.profile-fields-table', 'Edit Biography'],
      ['organization/default-channels-list', '.default-channels-table', 'Remove #Denmark'],
      ['channels/all', '.channel-browser', 'Permissions'],
    ];
    const pass = async (theme: string) => {
      for (const [section, ready, control] of SECTIONS) {
        await iago.goto(`${service.origin}/#${section}`);
        await iago.locator(ready).waitFor();
        found[`${theme} ${section}`] = await seriousViolations(iago);
        if (theme === 'dark') await browser.screenshot(iago, `webapp-dark-${section.replace('/', '-')}`);
        if (!control) continue;
        await iago.getByRole('button', { name: control, exact: true }).first().click();
        await iago.locator('.confirm-dialog').waitFor();
        found[`${theme} ${section} dialog`] = await seriousViolations(iago);
        if (theme === 'dark') await browser.screenshot(iago, `webapp-dark-${section.replace('/', '-')}-dialog`);
        await iago.keyboard.press('Escape');
        await iago.locator('.confirm-dialog').waitFor({ state: 'detached' });
      }
      await page.goto(`${service.origin}/#settings/account-and-privacy`);
      await page.getByRole('button', { name: 'Sign out of other sessions' }).click();
      await page.locator('.confirm-dialog').waitFor();
      found[`${theme} sign out of other sessions`] = await seriousViolations(page);
      await page.keyboard.press('Escape');
    };
    await pass('light');
    await iago.emulateMedia({ colorScheme: 'dark' });
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      await pass('dark');
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
    expect(Object.entries(found).filter(([, violations]) => violations.length > 0)).toEqual([]);
    // Each section, the dialogs of those with a control, and signing out of other sessions; twice.
    const dialogs = SECTIONS.filter(([, , control]) => control).length;
    expect(Object.keys(found)).toHaveLength(2 * (SECTIONS.length + dialogs + 1));
  }, 180000);

  it('reaches the controls by Tab alone, each with a visible focus', async () => {
    await page.goto(topicUrl());
    await row(page, 'Readable by all').waitFor();
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    const unseen: string[] = [];
    const reached = new Set<string>();
    for (let i = 0; i < 40; i += 1) {
      await page.keyboard.press('Tab');
      const focus = (await page.evaluate(`(() => {
        const el = document.activeElement;
        if (!el || el === document.body) return null;
        const style = getComputedStyle(el);
        const visible = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
        const name = el.id ? '#' + el.id : el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : '');
        return { name, visible };
      })()`)) as { name: string; visible: boolean } | null;
      if (!focus) continue;
      reached.add(focus.name);
      if (!focus.visible) unseen.push(focus.name);
    }
    // The search box, the compose box and the send button are among what Tab reaches.
    expect([...reached]).toEqual(expect.arrayContaining(['#search_query']));
    expect([...new Set(unseen)]).toEqual([]);
  }, 60000);
});
