// The channel reads against the development data: Denmark (1) public, Scotland (2), Verona (3),
// Venice (4), Rome (5, web-public), core team (6, private: 9, 10, 11), Old Verona (7, archived),
// Britain (10, another organization). Hamlet (10) is subscribed to 3, 1, 6; Cordelia (8) to 3;
// Polonius (13) is a guest subscribed to 3; Desdemona (9) is an owner; Iago (11) an administrator.
import { handler as getHandler } from '../../../functions/channels/get';
import { handler as getIdHandler } from '../../../functions/channels/get-id';
import { handler as listHandler } from '../../../functions/channels/list';
import { handler as membersHandler } from '../../../functions/channels/members';
import { handler as subscriptionsHandler } from '../../../functions/channels/subscriptions';
import { call, expectError, expectSuccess } from '../../helpers/api';

const names = (streams: { name: string }[]) => streams.map((s) => s.name);
const list = async (as: string, params: Record<string, unknown> = {}) =>
  names(expectSuccess(await call(listHandler, { method: 'GET', path: '/streams', as, params })).streams);

describe('GET /streams', () => {
  it('lists public and subscribed channels by name, without archived ones, by default', async () => {
    expect(await list('cordelia@zulip.com')).toEqual(['Denmark', 'Rome', 'Scotland', 'Venice', 'Verona']);
    expect(await list('hamlet@zulip.com')).toEqual(['core team', 'Denmark', 'Rome', 'Scotland', 'Venice', 'Verona'].sort());
  });

  it('gives a guest only its subscribed channels, whatever include_public says', async () => {
    expect(await list('polonius@zulip.com')).toEqual(['Verona']);
    expect(await list('polonius@zulip.com', { include_web_public: true })).toEqual(['Rome', 'Verona']);
  });

  it('leaves out public channels with include_public false', async () => {
    expect(await list('cordelia@zulip.com', { include_public: false })).toEqual(['Verona']);
  });

  it('lists archived channels with exclude_archived false', async () => {
    expect(await list('iago@zulip.com', { exclude_archived: false })).toContain('Old Verona');
  });

  it('lists every channel with metadata access with include_all (private ones for an administrator)', async () => {
    expect(await list('iago@zulip.com', { include_all: true, include_public: false, include_subscribed: false })).toContain('core team');
    expect(await list('cordelia@zulip.com', { include_all: true })).not.toContain('core team');
  });

  it('accepts the deprecated include_all_active', async () => {
    expect(await list('desdemona@zulip.com', { include_all_active: true, include_public: false, include_subscribed: false })).toContain(
      'core team',
    );
  });

  it("never names another organization's channel", async () => {
    expect(await list('iago@zulip.com', { include_all: true })).not.toContain('Britain');
  });

  it('answers the stream fields register shows', async () => {
    const body = expectSuccess(await call(listHandler, { method: 'GET', path: '/streams', as: 'cordelia@zulip.com' }));
    const denmark = body.streams.find((s: { name: string }) => s.name === 'Denmark');
    expect(denmark).toMatchObject({ stream_id: 1, description: 'A Scandinavian country', invite_only: false, subscriber_count: 7 });
  });

  it('refuses a non-boolean filter', async () => {
    expectError(
      await call(listHandler, { method: 'GET', path: '/streams', as: 'cordelia@zulip.com', params: { include_public: 'yes' } }),
      'include_public is not valid JSON',
    );
  });
});

describe('GET /streams/{stream_id}', () => {
  const get = (as: string, id: number) =>
    call(getHandler, { method: 'GET', path: `/streams/${id}`, as, pathParameters: { stream_id: String(id) } });

  it('answers a public channel', async () => {
    expect(expectSuccess(await get('cordelia@zulip.com', 1)).stream).toMatchObject({ stream_id: 1, name: 'Denmark' });
  });

  it('answers a private channel to an administrator who is not subscribed', async () => {
    await expect(get('desdemona@zulip.com', 6).then(expectSuccess)).resolves.toMatchObject({ stream: { name: 'core team' } });
  });

  it.each([
    ['a private channel to a non-subscriber', 'cordelia@zulip.com', 6],
    ['a public channel to a guest not subscribed', 'polonius@zulip.com', 1],
    ['an archived channel', 'iago@zulip.com', 7],
    ["another organization's channel", 'iago@zulip.com', 10],
    ['a channel that does not exist', 'iago@zulip.com', 9999],
  ])('refuses %s with "Invalid channel ID"', async (_what, as, id) => {
    expectError(await get(as, id), 'Invalid channel ID');
  });
});

describe('GET /get_stream_id', () => {
  const getId = (as: string, stream: string) => call(getIdHandler, { method: 'GET', path: '/get_stream_id', as, params: { stream } });

  it('answers the id of a channel by name, case-insensitively', async () => {
    expect(expectSuccess(await getId('cordelia@zulip.com', 'denmark'))).toEqual({ result: 'success', msg: '', stream_id: 1 });
  });

  it.each([
    ['an unknown name', 'cordelia@zulip.com', 'Atlantis'],
    ['a private channel to a non-subscriber', 'cordelia@zulip.com', 'core team'],
    ["another organization's channel", 'cordelia@zulip.com', 'Britain'],
  ])("refuses %s with upstream's message", async (_what, as, name) => {
    expectError(await getId(as, name), `Invalid channel name '${name}'`);
  });

  it('requires the stream argument', async () => {
    expectError(
      await call(getIdHandler, { method: 'GET', path: '/get_stream_id', as: 'cordelia@zulip.com' }),
      "Missing 'stream' argument",
      400,
      'REQUEST_VARIABLE_MISSING',
    );
  });
});

describe('GET /streams/{stream_id}/members', () => {
  const members = (as: string, id: number) =>
    call(membersHandler, { method: 'GET', path: `/streams/${id}/members`, as, pathParameters: { stream_id: String(id) } });

  it('lists the active subscribers of a private channel to a subscriber', async () => {
    expect(expectSuccess(await members('hamlet@zulip.com', 6)).subscribers).toEqual([9, 10, 11]);
  });

  it('refuses a private channel to a non-subscriber', async () => {
    expectError(await members('cordelia@zulip.com', 6), 'Invalid channel ID');
  });
});

describe('GET /users/me/subscriptions', () => {
  const subs = (as: string, params: Record<string, unknown> = {}) =>
    call(subscriptionsHandler, { method: 'GET', path: '/users/me/subscriptions', as, params });

  it("lists the caller's active subscriptions by name, archived ones left out, notification settings null when inherited", async () => {
    const body = expectSuccess(await subs('iago@zulip.com'));
    expect(names(body.subscriptions)).toEqual(['core team', 'Denmark', 'Scotland', 'Verona'].sort());
    const denmark = body.subscriptions.find((s: { name: string }) => s.name === 'Denmark');
    expect(denmark).toMatchObject({
      color: '#e79ab5',
      desktop_notifications: true,
      email_notifications: null,
      is_muted: false,
      in_home_view: true,
    });
    expect(denmark.subscribers).toBeUndefined();
  });

  it("adds each channel's subscribers with include_subscribers", async () => {
    const body = expectSuccess(await subs('hamlet@zulip.com', { include_subscribers: true }));
    expect(body.subscriptions.find((s: { name: string }) => s.name === 'core team').subscribers).toEqual([9, 10, 11]);
  });
});
