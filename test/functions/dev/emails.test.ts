// GET /emails/ (development mode): the emails sent through the local SES store, with working links.
import { handler as emailsPage } from '../../../functions/dev/emails';
import { handler as create } from '../../../functions/invites/create';
import * as invitesStore from '../../../lib/store/invites';
import { sendEmail } from '../../../lib/store/emails';
import { buildEvent, call, expectSuccess } from '../../helpers/api';

const getPage = async () => {
  const response = await emailsPage(await buildEvent({ method: 'GET', path: '/emails/', routeKey: 'GET /emails/' }));
  return { status: response.statusCode, type: response.headers['Content-Type'], html: response.body };
};

describe('GET /emails/', () => {
  afterEach(() => {
    process.env.DEVELOPMENT_MODE = 'on';
  });

  it('lists an invitation email with its subject, recipient and a working join link', async () => {
    const address = 'page-reader@emails-page.example.com';
    expectSuccess(
      await call(create, { method: 'POST', path: '/invites', as: 'iago@zulip.com', params: { invitee_emails: address, stream_ids: [] } }),
    );
    const [invite] = (await invitesStore.listEmailInvitesOfRealm(2)).filter((i) => i.email === address);
    const link = `http://localhost:3000/join/${invite.confirmationKey}/`;
    const page = await getPage();
    expect(page).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    expect(page.html).toContain('<h2>Iago has invited you to join Zulip Dev</h2>');
    expect(page.html).toContain(`<dt>To</dt><dd>${address}</dd>`);
    expect(page.html).toContain(`<a href="${link}">${link}</a>`);
  });

  it('escapes what an email says, so that its text cannot script the page', async () => {
    await sendEmail({
      to: ['escape@emails-page.example.com'],
      subject: '<script>alert(1)</script>',
      text: 'See https://example.com/?a=1&b="x" and <b>bold</b>',
      html: '<p>x</p>',
    });
    const { html } = await getPage();
    expect(html).toContain('<h2>&lt;script&gt;alert(1)&lt;/script&gt;</h2>');
    expect(html).not.toContain('<script>');
    expect(html).toContain(
      '<a href="https://example.com/?a=1&amp;b=">https://example.com/?a=1&amp;b=</a>&quot;x&quot; and &lt;b&gt;bold&lt;/b&gt;',
    );
  });

  it('leaves the punctuation that ends a sentence out of a link', async () => {
    await sendEmail({
      to: ['punctuation@emails-page.example.com'],
      subject: 'Punctuation',
      text: 'An account on http://localhost:3000. Or (http://localhost:3000/login/), see',
      html: '<p>x</p>',
    });
    const { html } = await getPage();
    expect(html).toContain(
      'An account on <a href="http://localhost:3000">http://localhost:3000</a>. Or (<a href="http://localhost:3000/login/">http://localhost:3000/login/</a>), see',
    );
  });

  it.each([['off'], [''], ['yes']])('is a 404 page unless DEVELOPMENT_MODE=on (%j)', async (value) => {
    process.env.DEVELOPMENT_MODE = value;
    const page = await getPage();
    expect(page).toMatchObject({ status: 404, type: 'text/html; charset=utf-8' });
    expect(page.html).toContain('Page not found');
    expect(page.html).not.toContain('emails-page.example.com');
  });
});
