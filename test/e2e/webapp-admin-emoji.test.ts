// Custom emoji in the web app's organization settings, in Chromium, with two people: King Hamlet (a
// member, whom the organization lets add emoji) is refused a name upstream refuses and then uploads
// one, which Iago's compose typeahead offers at once; Hamlet may not delete Iago's emoji; Iago (an
// administrator) deletes Hamlet's, which Hamlet's list and typeahead then lose. The API reports
// what each page did, and nothing after a refusal.
import type { Page } from 'playwright-core';
import { useBrowser } from '../helpers/browser';
import { useLocalService } from '../helpers/e2e';
import { signInTwoPeople, type TwoPeople } from '../helpers/webapp-pages';

const service = useLocalService();
const browser = useBrowser();
const errors: string[] = [];

/** A red pixel: a GIF the browser draws. */
/** An image's natural width once the browser has loaded it, or failed to (0). Runs in the page. */
function imageWidthWhenSettled(element: unknown): Promise<number> {
  const img = element as {
    complete: boolean;
    naturalWidth: number;
    addEventListener(type: string, listener: () => void): void;
  };
  if (img.complete) return Promise.resolve(img.naturalWidth);
  return new Promise((resolve) => {
    const settled = () => resolve(img.naturalWidth);
    img.addEventListener('load', settled);
    img.addEventListener('error', settled);
  });
}

const GIF = Buffer.from('R0lGODlhAQABAIAAAP8AAP///yH5BAAAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

type Emoji = { id: string; name: string; author_id: number; deactivated: boolean };

describe('e2e: custom emoji in the web app', () => {
  let people: TwoPeople;
  const activeEmoji = async (): Promise<Emoji[]> =>
    Object.values((await people.iagoApi.callEndpoint('/realm/emoji', 'GET', {})).emoji as Record<string, Emoji>).filter(
      (e) => !e.deactivated,
    );
  const topicUrl = () => `${service.origin}/#narrow/channel/${people.denmark}-Denmark/topic/emoji`;

  /** Types `:<prefix>` in the compose box and returns the typeahead's entries. */
  const typeaheadFor = async (page: Page, prefix: string): Promise<string[]> => {
    await page.goto(topicUrl());
    await page.fill('#compose-textarea', '');
    await page.click('#compose-textarea');
    await page.keyboard.type(`:${prefix}`);
    await page.waitForTimeout(500);
    const entries = await page.locator('#compose-typeahead li').allInnerTexts();
    await page.fill('#compose-textarea', '');
    return entries;
  };

  const upload = async (page: Page, name: string, withFile = true) => {
    const section = page.locator('#organization_page .add-emoji-form');
    await section.getByLabel('Emoji name').fill(name);
    await section.getByLabel(/Emoji image/).setInputFiles(withFile ? { name: 'pixel.gif', mimeType: 'image/gif', buffer: GIF } : []);
    await section.getByRole('button', { name: 'Add emoji' }).click();
  };

  beforeAll(async () => {
    people = await signInTwoPeople(service, browser, errors);
  }, 120000);

  afterAll(() => {
    expect(errors).toEqual([]);
  });

  it("shows the server's refusals of a name or a missing file, and adds nothing", async () => {
    const before = await activeEmoji();
    const { hamletPage } = people;
    await hamletPage.goto(`${service.origin}/#organization/emoji-settings`);
    await upload(hamletPage, 'Yorick!');
    await hamletPage
      .locator('.add-emoji-form .settings-error', {
        hasText: 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.',
      })
      .waitFor();
    await upload(hamletPage, 'yorick_');
    await hamletPage
      .locator('.add-emoji-form .settings-error', { hasText: 'Emoji names must end with either a letter or digit.' })
      .waitFor();
    await upload(hamletPage, 'yorick', false);
    await hamletPage.locator('.add-emoji-form .settings-error', { hasText: 'You must upload exactly one file.' }).waitFor();
    expect(await activeEmoji()).toEqual(before);
  }, 90000);

  it("uploads an emoji the other person's typeahead offers at once, listed with its author", async () => {
    const { hamletPage, iagoPage, hamletId } = people;
    expect(await typeaheadFor(iagoPage, 'yori')).toEqual([]);
    await upload(hamletPage, 'poor yorick');
    await hamletPage.locator('.add-emoji-form .settings-status', { hasText: 'Emoji added.' }).waitFor();
    const shown = hamletPage.locator('.emoji-table tr[data-emoji-name="poor_yorick"]');
    await shown.waitFor();
    expect(await shown.locator('.emoji-author').innerText()).toBe('King Hamlet');
    // The image loaded: once the browser has finished with it, it knows its width (a broken image has none).
    // On a loaded machine the row can be drawn before the image arrives, so wait for load or error first.
    expect(await shown.locator('img').evaluate(imageWidthWhenSettled)).toBe(1);
    await browser.screenshot(hamletPage, 'webapp-organization-emoji');
    expect((await activeEmoji()).find((e) => e.name === 'poor_yorick')).toMatchObject({ author_id: hamletId });
    expect(await typeaheadFor(iagoPage, 'yori')).toEqual([':poor_yorick:']);
  }, 90000);

  it("lets a member delete only their own emoji, and an administrator delete anyone's, which the author's page loses", async () => {
    const { hamletPage, iagoPage } = people;
    await iagoPage.goto(`${service.origin}/#organization/emoji-settings`);
    await upload(iagoPage, 'skull');
    await iagoPage.locator('.emoji-table tr[data-emoji-name="skull"]').waitFor();
    // Hamlet sees Iago's emoji arrive, with no delete control; his own has one.
    await hamletPage.locator('.emoji-table tr[data-emoji-name="skull"]').waitFor();
    expect(await hamletPage.getByRole('button', { name: 'Delete skull' }).count()).toBe(0);
    expect(await hamletPage.getByRole('button', { name: 'Delete poor_yorick' }).count()).toBe(1);

    await iagoPage.getByRole('button', { name: 'Delete poor_yorick' }).click();
    const dialog = iagoPage.getByRole('alertdialog', { name: 'Delete :poor_yorick:?' });
    await dialog.waitFor();
    await browser.screenshot(iagoPage, 'webapp-organization-emoji-delete');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.waitFor({ state: 'detached' });
    await hamletPage.locator('.emoji-table tr[data-emoji-name="poor_yorick"]').waitFor({ state: 'detached' });
    expect((await activeEmoji()).map((e) => e.name)).toEqual(['skull']);
    expect(await typeaheadFor(hamletPage, 'yori')).toEqual([]);
  }, 90000);
});
