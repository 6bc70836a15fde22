// Linkifiers in the web app's organization settings, in Chromium, with two people: Iago (an
// administrator) is refused a URL template that does not match its pattern, then adds a linkifier
// that King Hamlet (a member, who sees the list read-only) sees arrive, and Hamlet's next message
// links its text; Iago moves one up, edits one and deletes one, and Hamlet's list follows. The API
// reports what each page did, and nothing after a refusal.
import { useBrowser } from '../helpers/browser';
import { useLocalService } from '../helpers/e2e';
import { row, settled, signInTwoPeople, type TwoPeople } from '../helpers/webapp-pages';

const service = useLocalService();
const browser = useBrowser();
const errors: string[] = [];

type Linkifier = { id: number; pattern: string; url_template: string };

describe('e2e: linkifiers in the web app', () => {
  let people: TwoPeople;
  const linkifiers = async (): Promise<Linkifier[]> => (await people.iagoApi.callEndpoint('/realm/linkifiers', 'GET', {})).linkifiers;
  const shownPatterns = (page: TwoPeople['hamletPage']) => page.locator('.linkifiers-table .linkifier-pattern').allInnerTexts();
  const form = () => people.iagoPage.locator('.add-linkifier-form');
  const add = async (pattern: string, template: string) => {
    await form().getByLabel('Pattern').fill(pattern);
    await form().getByLabel('URL template').fill(template);
    await form().getByRole('button', { name: 'Add linkifier' }).click();
  };

  beforeAll(async () => {
    people = await signInTwoPeople(service, browser, errors);
  }, 120000);

  afterAll(() => {
    expect(errors).toEqual([]);
  });

  it("shows the server's refusal of a template that does not match the pattern, and adds nothing", async () => {
    const before = await linkifiers();
    await people.iagoPage.goto(`${service.origin}/#organization/linkifier-settings`);
    await add('#(?P<id>[0-9]+)', 'https://trac.example.com/ticket/{ticket}');
    await form().locator('.settings-error', { hasText: "Group 'ticket' in URL template is not present in linkifier pattern." }).waitFor();
    await add('#(?P<id>[0-9]+', 'https://trac.example.com/ticket/{id}');
    await form()
      .locator('.settings-error', { hasText: /^Bad regular expression/ })
      .waitFor();
    expect(await linkifiers()).toEqual(before);
  }, 90000);

  it("adds a linkifier the member sees read-only, and the member's next message links its text", async () => {
    const { iagoPage, hamletPage, denmark } = people;
    await hamletPage.goto(`${service.origin}/#organization/linkifier-settings`);
    await hamletPage.locator('.settings-section h3', { hasText: 'Linkifiers' }).waitFor();
    await add('#(?P<id>[0-9]+)', 'https://trac.example.com/ticket/{id}');
    await form().locator('.settings-status', { hasText: 'Linkifier added.' }).waitFor();
    await hamletPage.locator('.linkifiers-table .linkifier-pattern', { hasText: '#(?P<id>[0-9]+)' }).waitFor();
    expect(
      await hamletPage.locator('#organization_page .settings-section input, #organization_page .settings-section button').count(),
    ).toBe(0);
    await browser.screenshot(hamletPage, 'webapp-organization-linkifiers-member');
    expect((await linkifiers()).at(-1)).toMatchObject({ pattern: '#(?P<id>[0-9]+)', url_template: 'https://trac.example.com/ticket/{id}' });

    await hamletPage.goto(`${service.origin}/#narrow/channel/${denmark}-Denmark/topic/tickets`);
    await hamletPage.fill('#compose-textarea', 'Fixed in #1234');
    await hamletPage.press('#compose-textarea', 'Enter');
    await iagoPage.goto(`${service.origin}/#narrow/channel/${denmark}-Denmark/topic/tickets`);
    const link = row(iagoPage, 'Fixed in').locator('a', { hasText: '#1234' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('https://trac.example.com/ticket/1234');
  }, 90000);

  it("moves, edits and deletes linkifiers, and the member's list follows", async () => {
    const { iagoPage, hamletPage } = people;
    // The development data's own linkifiers come first.
    const seeded = (await linkifiers()).slice(0, -1).map((l) => l.pattern);
    await hamletPage.goto(`${service.origin}/#organization/linkifier-settings`);
    await iagoPage.goto(`${service.origin}/#organization/linkifier-settings`);
    await add('JIRA-(?P<id>[0-9]+)', 'https://jira.example.com/browse/JIRA-{id}');
    await iagoPage.locator('.linkifiers-table .linkifier-pattern', { hasText: 'JIRA' }).waitFor();
    await iagoPage.getByRole('button', { name: 'Move JIRA-(?P<id>[0-9]+) up' }).click();
    const moved = [...seeded, 'JIRA-(?P<id>[0-9]+)', '#(?P<id>[0-9]+)'];
    const order = await settled(
      () => shownPatterns(hamletPage),
      (p) => p.join('\n') === moved.join('\n'),
    );
    expect(order).toEqual(moved);
    expect((await linkifiers()).map((l) => l.pattern)).toEqual(order);

    await iagoPage.getByRole('button', { name: 'Edit JIRA-(?P<id>[0-9]+)' }).click();
    const dialog = iagoPage.getByRole('dialog', { name: 'Edit linkifier' });
    await dialog.getByLabel('URL template').fill('https://jira.example.com/browse/{id}');
    await browser.screenshot(iagoPage, 'webapp-organization-linkifier-edit');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    await hamletPage.locator('.linkifiers-table .linkifier-url', { hasText: 'https://jira.example.com/browse/{id}' }).waitFor();
    expect((await linkifiers()).at(-2)).toMatchObject({
      pattern: 'JIRA-(?P<id>[0-9]+)',
      url_template: 'https://jira.example.com/browse/{id}',
    });

    await iagoPage.getByRole('button', { name: 'Delete #(?P<id>[0-9]+)' }).click();
    await iagoPage.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await settled(
      () => shownPatterns(hamletPage),
      (p) => p.length === seeded.length + 1,
    );
    expect(await shownPatterns(hamletPage)).toEqual([...seeded, 'JIRA-(?P<id>[0-9]+)']);
    await browser.screenshot(iagoPage, 'webapp-organization-linkifiers');
    expect((await linkifiers()).map((l) => l.pattern)).toEqual([...seeded, 'JIRA-(?P<id>[0-9]+)']);
  }, 90000);
});
