// The web app's search box and compose box in Chromium, with two people: a search by upstream's
// operators picked from the suggestions opens its #narrow/… view and shows what GET /messages
// answers for the same narrow; a mention completed by the typeahead reaches the other person as a
// mention; a file uploaded by the button, by dropping and by pasting becomes a link the other
// person can open; a draft is kept on the server and comes back; a /poll vote is seen live by the
// other person and stored as the submessage the API reports.
import type { Page } from 'playwright-core';
import { useBrowser } from '../helpers/browser';
import { useLocalService } from '../helpers/e2e';
import { row, signInTwoPeople } from '../helpers/webapp-pages';

const service = useLocalService();
const browser = useBrowser();

const HAMLET = 'hamlet@zulip.com';
const errors: string[] = [];

const shownIds = async (page: Page): Promise<number[]> =>
  (await page.locator('.message_row[data-message-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-message-id')))).map(
    Number,
  );

/** Waits until a field's value passes (the page's CSP forbids Playwright's waitForFunction). */
const waitForValue = async (page: Page, selector: string, passes: (value: string) => boolean): Promise<string> => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await page.inputValue(selector).catch(() => '');
    if (passes(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

/** Drops or pastes a file onto the compose box, as the browser does with a file from the desktop or the clipboard. */
const giveFile = (page: Page, how: 'drop' | 'paste', name: string, text: string): Promise<unknown> =>
  page.evaluate(`(() => {
    const data = new DataTransfer();
    data.items.add(new File([${JSON.stringify(text)}], ${JSON.stringify(name)}, { type: 'text/plain' }));
    const textarea = document.querySelector('#compose-textarea');
    const event = ${JSON.stringify(how)} === 'drop'
      ? new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true })
      : new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
    textarea.dispatchEvent(event);
  })()`);

describe('e2e: search and compose in the web app', () => {
  let hamletPage: Page;
  let iagoPage: Page;
  let hamletApi: any;
  let iagoApi: any;
  let denmark: number;
  let iagoId: number;
  const topicUrl = (topic: string) => `${service.origin}/#narrow/channel/${denmark}-Denmark/topic/${topic}`;

  beforeAll(async () => {
    ({ hamletPage, iagoPage, hamletApi, iagoApi, denmark, iagoId } = await signInTwoPeople(service, browser, errors));
  }, 120000);

  afterAll(() => {
    expect(errors).toEqual([]);
  });

  it('searches by the operators the suggestions offer, shows the hash and what the API answers', async () => {
    for (const content of ['marmalade with a link https://example.com/jam', 'marmalade plain']) {
      expect(await iagoApi.messages.send({ type: 'stream', to: denmark, topic: 'breakfast', content })).toMatchObject({
        result: 'success',
      });
    }
    await hamletPage.goto(`${service.origin}/#inbox`);
    await hamletPage.click('#search_query');
    await hamletPage.keyboard.type('sender:iag');
    await hamletPage.locator('#search_suggestions li', { hasText: 'Sent by Iago' }).waitFor();
    await browser.screenshot(hamletPage, 'webapp-search-suggestions');
    await hamletPage.keyboard.press('Enter');
    await hamletPage.waitForURL(`**/#narrow/sender/${iagoId}-Iago`);
    await row(hamletPage, 'marmalade plain').waitFor();

    await hamletPage.fill('#search_query', 'channel:Denmark topic:breakfast -has:link');
    await hamletPage.press('#search_query', 'Enter');
    await hamletPage.waitForURL(`**/#narrow/channel/${denmark}-Denmark/topic/breakfast/-has/link`);
    await row(hamletPage, 'marmalade plain').waitFor();
    expect(await row(hamletPage, 'example.com').count()).toBe(0);
    expect(await hamletPage.locator('#message_view_header').innerText()).toBe('Search results');
    const narrow = [
      { operator: 'channel', operand: denmark },
      { operator: 'topic', operand: 'breakfast' },
      { operator: 'has', operand: 'link', negated: true },
    ];
    const answer = await hamletApi.messages.retrieve({ anchor: 'newest', num_before: 100, num_after: 0, narrow });
    expect(await shownIds(hamletPage)).toEqual(answer.messages.map((m: { id: number }) => m.id));

    // A reload keeps the search, and the box shows it.
    await hamletPage.reload();
    await row(hamletPage, 'marmalade plain').waitFor();
    expect(await hamletPage.inputValue('#search_query')).toBe('channel:Denmark topic:breakfast -has:link');

    await hamletPage.fill('#search_query', 'channel:Atlantis soup');
    await hamletPage.press('#search_query', 'Enter');
    expect(await hamletPage.locator('.search-error').innerText()).toBe('No such channel or person: channel:Atlantis');
  }, 90000);

  it('completes a mention, a channel link and an emoji, and the other person is mentioned', async () => {
    await hamletPage.goto(topicUrl('typeahead'));
    await hamletPage.fill('#compose-textarea', '');
    await hamletPage.click('#compose-textarea');
    await hamletPage.keyboard.type('Ahoy @iag');
    await hamletPage.locator('#compose-typeahead li', { hasText: 'Iago' }).waitFor();
    await browser.screenshot(hamletPage, 'webapp-compose-mention');
    await hamletPage.keyboard.press('Enter');
    await hamletPage.keyboard.type('see #**Denmark>break');
    await hamletPage.locator('#compose-typeahead li', { hasText: 'breakfast' }).waitFor();
    await hamletPage.keyboard.press('Enter');
    await hamletPage.keyboard.type(':octop');
    await hamletPage.locator('#compose-typeahead li', { hasText: ':octopus:' }).waitFor();
    await browser.screenshot(hamletPage, 'webapp-compose-emoji');
    await hamletPage.keyboard.press('Enter');
    expect(await hamletPage.inputValue('#compose-textarea')).toBe('Ahoy @**Iago** see #**Denmark>breakfast** :octopus: ');
    await hamletPage.keyboard.press('Enter');

    await iagoPage.goto(topicUrl('typeahead'));
    await row(iagoPage, 'Ahoy').locator('.user-mention').waitFor();
    const mine = await iagoApi.messages.retrieve({
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: [{ operator: 'is', operand: 'mentioned' }],
    });
    expect(mine.messages[0]).toMatchObject({ subject: 'typeahead', sender_email: HAMLET });
    expect(mine.messages[0].flags).toContain('mentioned');
    expect(mine.messages[0].content).toContain('class="user-mention"');
  }, 90000);

  it('uploads by the button, by dropping and by pasting, and the other person opens the links', async () => {
    await hamletPage.goto(topicUrl('files'));
    await hamletPage.fill('#compose-textarea', 'Files: ');
    await hamletPage.setInputFiles('#file_input', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('by the button') });
    await waitForValue(hamletPage, '#compose-textarea', (v) => v.includes('[notes.txt](/user_uploads/'));
    await giveFile(hamletPage, 'drop', 'dropped.txt', 'by dropping');
    await giveFile(hamletPage, 'paste', 'pasted.txt', 'by pasting');
    const text = await waitForValue(
      hamletPage,
      '#compose-textarea',
      (v) => v.includes('[dropped.txt](/user_uploads/') && v.includes('[pasted.txt]('),
    );
    expect(text).toMatch(
      /^Files: \[notes\.txt\]\(\/user_uploads\/\S+\) \[dropped\.txt\]\(\/user_uploads\/\S+\) \[pasted\.txt\]\(\/user_uploads\/\S+\) *$/,
    );
    expect(await hamletPage.locator('.upload-progress').count()).toBe(0);
    await hamletPage.click('#compose-send-button');

    await iagoPage.goto(topicUrl('files'));
    const links = row(iagoPage, 'Files').locator('a[href*="/user_uploads/"]');
    await links.nth(2).waitFor();
    const bodies = [];
    for (const href of await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')!))) {
      bodies.push(await iagoPage.evaluate(`fetch(${JSON.stringify(href)}).then((r) => r.text())`));
    }
    expect(bodies).toEqual(['by the button', 'by dropping', 'by pasting']);
  }, 90000);

  it('keeps a draft on the server and restores it on returning and after a reload', async () => {
    await hamletPage.goto(topicUrl('drafty'));
    await hamletPage.fill('#compose-textarea', '');
    await hamletPage.click('#compose-textarea');
    await hamletPage.keyboard.type('half a thought');
    let drafts: { id: number; type: string; to: number[]; topic: string; content: string }[] = [];
    for (let i = 0; i < 50 && !drafts.some((d) => d.content === 'half a thought'); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      drafts = (await hamletApi.callEndpoint('/drafts', 'GET', {})).drafts;
    }
    expect(drafts.find((d) => d.content === 'half a thought')).toMatchObject({ type: 'stream', to: [denmark], topic: 'drafty' });

    await hamletPage.goto(topicUrl('elsewhere'));
    // The other conversation's compose box is empty once its view is shown (not at once on goto).
    expect(await waitForValue(hamletPage, '#compose-textarea', (v) => v === '')).toBe('');
    await hamletPage.goto(topicUrl('drafty'));
    expect(await waitForValue(hamletPage, '#compose-textarea', (v) => v === 'half a thought')).toBe('half a thought');
    await hamletPage.reload();
    expect(await waitForValue(hamletPage, '#compose-textarea', (v) => v === 'half a thought')).toBe('half a thought');

    // Sent, the draft is gone.
    await hamletPage.press('#compose-textarea', 'Enter');
    await row(hamletPage, 'half a thought').waitFor();
    for (let i = 0; i < 50 && drafts.some((d) => d.content === 'half a thought'); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      drafts = (await hamletApi.callEndpoint('/drafts', 'GET', {})).drafts;
    }
    expect(drafts.some((d) => d.content === 'half a thought')).toBe(false);
  }, 90000);

  it('shows a /poll whose vote the other person sees live and the API reports', async () => {
    await hamletPage.goto(topicUrl('lunch'));
    await hamletPage.fill('#compose-textarea', '/poll Lunch?\nsoup\nsalad');
    await hamletPage.press('#compose-textarea', 'Enter');
    await iagoPage.goto(topicUrl('lunch'));
    const option = (page: Page, name: string) => page.locator('.poll-widget li', { hasText: name });
    await option(iagoPage, 'salad').locator('.poll-vote').click();
    await option(hamletPage, 'salad').filter({ hasText: 'Iago' }).waitFor();
    expect(await option(hamletPage, 'salad').locator('.poll-vote').innerText()).toBe('1');
    await browser.screenshot(hamletPage, 'webapp-poll');

    const id = Number(await row(hamletPage, 'Lunch?').getAttribute('data-message-id'));
    const { message } = await hamletApi.callEndpoint(`/messages/${id}`, 'GET', {});
    expect(message.submessages.map((s: { sender_id: number; content: string }) => [s.sender_id, JSON.parse(s.content)])).toEqual([
      [expect.any(Number), { widget_type: 'poll', extra_data: { question: 'Lunch?', options: ['soup', 'salad'] } }],
      [iagoId, { type: 'vote', key: 'canned,1', vote: 1 }],
    ]);
  }, 90000);
});
