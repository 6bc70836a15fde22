// POST /messages/render: the composers' preview, from the renderer a send uses (upstream's
// render_message_backend). Hamlet (10) and Othello (12) are users of the development realm;
// Denmark (1) is a public channel.
import { handler as render } from '../../../functions/messages/render';
import { handler as settingsHandler } from '../../../functions/settings/update';
import { call, expectError, expectSuccess } from '../../helpers/api';

const preview = (content: unknown, as = 'hamlet@zulip.com') =>
  call(render, { method: 'POST', path: '/messages/render', as, params: content === undefined ? {} : { content } });

describe('POST /messages/render', () => {
  it("returns the content's HTML as a send renders it: mentions, channel links, TeX, timestamps", async () => {
    const body = expectSuccess(await preview('@**Othello, the Moor of Venice** see #**Denmark** $$x^2$$ <time:2017-06-05T22:30:00Z>'));
    expect(Object.keys(body).sort()).toEqual(['msg', 'rendered', 'result']);
    expect(body.rendered).toMatch(
      /^<p><span class="user-mention" data-user-id="12">@Othello, the Moor of Venice<\/span> see <a class="stream" data-stream-id="1" href="\/#narrow\/channel\/1-Denmark">#Denmark<\/a> <span class="katex">/,
    );
    expect(body.rendered).toContain('<time datetime="2017-06-05T22:30:00Z">2017-06-05T22:30:00Z</time></p>');
  });

  it("renders emoticons by the caller's translate_emoticons setting", async () => {
    expect(expectSuccess(await preview(':)')).rendered).toBe('<p>:)</p>');
    expectSuccess(
      await call(settingsHandler, { method: 'PATCH', path: '/settings', as: 'hamlet@zulip.com', params: { translate_emoticons: true } }),
    );
    expect(expectSuccess(await preview(':)')).rendered).toContain('class="emoji emoji-1f642"');
  });

  it('needs content, and refuses content too long to render', async () => {
    expectError(await preview(undefined), "Missing 'content' argument", 400, 'REQUEST_VARIABLE_MISSING');
    expectError(await preview('a'.repeat(1_000_001)), 'Unable to render message');
  });
});
