import { devPassword } from '../../../lib/passwords';
import { callPage, PageClient } from '../../helpers/web';

describe('GET /', () => {
  it('sends a signed-out person to the login page, as upstream', async () => {
    const page = await callPage('/');
    expect(page.status).toBe(302);
    expect(page.headers.Location).toBe('/login/');
    expect(page.body).toBe('');
  });

  it('sends a signed-in person to their account page', async () => {
    const browser = new PageClient();
    await browser.logIn('iago@zulip.com', devPassword('iago@zulip.com'));
    const page = await browser.get('/');
    expect(page.status).toBe(302);
    expect(page.headers.Location).toBe('/accounts/');
  });
});
