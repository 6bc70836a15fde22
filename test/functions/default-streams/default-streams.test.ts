// POST /default_streams and DELETE /default_streams, and register's realm_default_streams, against
// the development data ('zulip': Denmark 1, Scotland 2, Verona 3, core team 6 private with iago
// subscribed, Old Verona 7 archived; 'lear': Britain 10).
import { handler as add } from '../../../functions/default-streams/add';
import { handler as remove } from '../../../functions/default-streams/remove';
import { handler as register } from '../../../functions/events/register';
import * as defaultChannelsStore from '../../../lib/store/default-channels';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const post = (as: string, streamId: unknown) =>
  call(add, { method: 'POST', path: '/default_streams', as, params: { stream_id: streamId } });
const del = (as: string, streamId: unknown) =>
  call(remove, { method: 'DELETE', path: '/default_streams', as, params: { stream_id: streamId } });
const stored = () => defaultChannelsStore.listDefaultChannelIds(2, { consistent: true });
const registered = async (as: string) =>
  expectSuccess(await call(register, { method: 'POST', path: '/register', as, params: { fetch_event_types: ['default_streams'] } }))
    .realm_default_streams;

describe('POST /default_streams', () => {
  it('refuses a member with "Must be an organization administrator" and changes nothing', async () => {
    expectError(await post('hamlet@zulip.com', 1), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect(await stored()).toEqual([]);
  });

  it.each([
    ['an unknown channel', 999999],
    ['an archived channel', 7],
    ["another organization's channel", 10],
  ])('answers "Invalid channel ID" for %s and changes nothing', async (_what, id) => {
    expectError(await post('iago@zulip.com', id), 'Invalid channel ID');
    expect(await stored()).toEqual([]);
  });

  it('answers "Private channels cannot be made default." for a private channel and changes nothing', async () => {
    expectError(await post('iago@zulip.com', 6), 'Private channels cannot be made default.');
    expect(await stored()).toEqual([]);
  });

  it("answers upstream's message for a stream_id that is not an integer", async () => {
    expectError(await post('iago@zulip.com', 'Denmark'), 'stream_id is not valid JSON');
    expect(await stored()).toEqual([]);
  });

  it('adds the channel and tells every non-guest its default channels, but not the guest', async () => {
    const hamlet = await openQueue('hamlet@zulip.com');
    const polonius = await openQueue('polonius@zulip.com');
    expectSuccess(await post('iago@zulip.com', 2));
    expect(await stored()).toEqual([2]);
    expect(await hamlet.drain()).toEqual([{ type: 'default_streams', default_streams: [2] }]);
    expect(await polonius.drain()).toEqual([]);
  });

  it('sends nothing when the channel is a default channel already', async () => {
    const hamlet = await openQueue('hamlet@zulip.com');
    expectSuccess(await post('iago@zulip.com', 2));
    expect(await hamlet.drain()).toEqual([]);
    expect(await stored()).toEqual([2]);
  });

  it('shows the default channels in register to members, and none to guests', async () => {
    expect(await registered('hamlet@zulip.com')).toEqual([2]);
    expect(await registered('polonius@zulip.com')).toEqual([]);
    expect(await registered('king@lear.org')).toEqual([]);
  });

  it('keeps both channels when two are added at once', async () => {
    await Promise.all([post('iago@zulip.com', 1), post('desdemona@zulip.com', 4)]);
    expect(await stored()).toEqual([1, 2, 4]);
  });
});

describe('DELETE /default_streams', () => {
  it('refuses a member with "Must be an organization administrator" and changes nothing', async () => {
    expectError(await del('hamlet@zulip.com', 2), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect(await stored()).toEqual([1, 2, 4]);
  });

  it.each([
    ['an unknown channel', 999999],
    ["another organization's channel", 10],
  ])('answers "Invalid channel ID" for %s and changes nothing', async (_what, id) => {
    expectError(await del('iago@zulip.com', id), 'Invalid channel ID');
    expect(await stored()).toEqual([1, 2, 4]);
  });

  it('removes the channel and tells every non-guest the remaining default channels', async () => {
    const othello = await openQueue('othello@zulip.com');
    expectSuccess(await del('iago@zulip.com', 2));
    expect(await stored()).toEqual([1, 4]);
    expect(await othello.drain()).toEqual([{ type: 'default_streams', default_streams: [1, 4] }]);
    expect(await registered('othello@zulip.com')).toEqual([1, 4]);
  });
});
