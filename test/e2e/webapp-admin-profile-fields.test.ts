// Custom profile fields in the web app's organization settings, in Chromium, with two people: Iago
// (an administrator) is refused a list without options and a label already taken, then adds a list
// field; King Hamlet fills it in on his profile settings, and his user card on Iago's page shows
// his choice; Iago renames the field, moves it up and deletes it, and the card follows. The API
// reports what each page did, and nothing after a refusal.
import type { Page } from 'playwright-core';
import { useBrowser } from '../helpers/browser';
import { useLocalService } from '../helpers/e2e';
import { row, settled, signInTwoPeople, type TwoPeople } from '../helpers/webapp-pages';

const service = useLocalService();
const browser = useBrowser();
const errors: string[] = [];

type Field = { id: number; name: string; type: number; field_data: string };

describe('e2e: custom profile fields in the web app', () => {
  let people: TwoPeople;
  let messageText: string;
  const fields = async (): Promise<Field[]> => (await people.iagoApi.callEndpoint('/realm/profile_fields', 'GET', {})).custom_fields;
  const form = () => people.iagoPage.locator('.add-profile-field-form');
  const add = async (type: string, label: string, options?: string) => {
    await form().getByLabel('Type').selectOption({ label: type });
    await form().getByLabel('Label').fill(label);
    if (options !== undefined) await form().getByLabel('Options, one per line').fill(options);
    await form().getByRole('button', { name: 'Add field' }).click();
  };

  /** Hamlet's user card on Iago's page: its fields, label and text. */
  const cardOfHamlet = async (page: Page): Promise<string[]> => {
    await page.goto(`${service.origin}/#narrow/channel/${people.denmark}-Denmark/topic/profiles`);
    await row(page, messageText).locator('.sender_name').click();
    const card = page.locator('#user-card-popover');
    await card.waitFor();
    const shown = await card.locator('.user_card_details dt, .user_card_details dd').allInnerTexts();
    await page.keyboard.press('Escape');
    return shown;
  };

  beforeAll(async () => {
    people = await signInTwoPeople(service, browser, errors);
    messageText = 'About my profile';
    await people.hamletApi.messages.send({ type: 'stream', to: 'Denmark', topic: 'profiles', content: messageText });
  }, 120000);

  afterAll(() => {
    expect(errors).toEqual([]);
  });

  it("shows the server's refusals of a list without options and of a taken label, and adds nothing", async () => {
    const before = await fields();
    await people.iagoPage.goto(`${service.origin}/#organization/profile-field-settings`);
    await add('List of options', 'Favorite play', '');
    await form().locator('.settings-error', { hasText: 'Field must have at least one choice.' }).waitFor();
    await add('Short text', 'Biography');
    await form().locator('.settings-error', { hasText: 'A field with that label already exists.' }).waitFor();
    expect(await fields()).toEqual(before);
  }, 90000);

  it('adds a list field that the other person fills in, and their user card shows the choice', async () => {
    const { iagoPage, hamletPage, hamletId } = people;
    await add('List of options', 'Favorite play', 'Hamlet\nMacbeth');
    await form().locator('.settings-status', { hasText: 'Field added.' }).waitFor();
    await iagoPage.locator('.profile-fields-table .profile-field-name', { hasText: 'Favorite play' }).waitFor();
    await browser.screenshot(iagoPage, 'webapp-organization-profile-fields');
    const added = (await fields()).at(-1)!;
    expect(added).toMatchObject({ name: 'Favorite play', type: 3 });
    expect(Object.values(JSON.parse(added.field_data) as Record<string, { text: string }>).map((c) => c.text)).toEqual([
      'Hamlet',
      'Macbeth',
    ]);

    await hamletPage.goto(`${service.origin}/#settings/profile`);
    const field = hamletPage.locator(`.custom_user_field[data-field-id="${added.id}"]`);
    await field.locator('select').selectOption({ label: 'Macbeth' });
    await hamletPage.getByRole('button', { name: 'Save profile' }).click();
    await hamletPage.locator('.settings-status', { hasText: 'Your profile was saved.' }).waitFor();
    const hamlet = await people.iagoApi.callEndpoint(`/users/${hamletId}`, 'GET', { include_custom_profile_fields: 'true' });
    expect(hamlet.user.profile_data[String(added.id)]).toMatchObject({ value: '1' });

    const card = await settled(
      () => cardOfHamlet(iagoPage),
      (shown) => shown.includes('Favorite play'),
    );
    expect(card.slice(card.indexOf('Favorite play'), card.indexOf('Favorite play') + 2)).toEqual(['Favorite play', 'Macbeth']);
  }, 90000);

  it('renames, moves and deletes the field, and the user card follows', async () => {
    const { iagoPage } = people;
    const added = (await fields()).at(-1)!;
    await iagoPage.goto(`${service.origin}/#organization/profile-field-settings`);
    await iagoPage.getByRole('button', { name: 'Edit Favorite play' }).click();
    const dialog = iagoPage.getByRole('dialog', { name: 'Edit Favorite play' });
    await dialog.getByLabel('Label').fill('Favourite play');
    await browser.screenshot(iagoPage, 'webapp-organization-profile-field-edit');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    await iagoPage.getByRole('button', { name: 'Move Favourite play up' }).click();
    const order = await settled(
      async () => (await fields()).map((f) => f.id),
      (ids) => ids.at(-2) === added.id,
    );
    expect(order.at(-2)).toBe(added.id);
    expect((await fields()).find((f) => f.id === added.id)!.name).toBe('Favourite play');
    expect(await cardOfHamlet(iagoPage)).toContain('Favourite play');

    await iagoPage.goto(`${service.origin}/#organization/profile-field-settings`);
    await iagoPage.getByRole('button', { name: 'Delete Favourite play' }).click();
    await iagoPage.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await iagoPage.locator('.profile-fields-table .profile-field-name', { hasText: 'Favourite play' }).waitFor({ state: 'detached' });
    expect((await fields()).map((f) => f.id)).not.toContain(added.id);
    expect(await cardOfHamlet(iagoPage)).not.toContain('Favourite play');
  }, 90000);
});
