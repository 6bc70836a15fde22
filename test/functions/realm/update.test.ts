import { handler as register } from '../../../functions/events/register';
import { handler as readReceipts } from '../../../functions/messages/read-receipts';
import { handler as updateMessage } from '../../../functions/messages/update';
import { handler as update } from '../../../functions/realm/update';
import { handler as serverSettings } from '../../../functions/auth/server-settings';
import { handler as getEvents } from '../../../functions/events/get';
import { advanceClock, freezeClock, resetClock } from '../../../lib/clock';
import { STATE_BUILDERS } from '../../../lib/state';
import { realmState as realmStateBuilder } from '../../../lib/state/realm';
import * as realmsStore from '../../../lib/store/realms';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { storeMessage } from '../../helpers/stored-messages';

const patch = (as: string, params: Record<string, unknown>) => call(update, { method: 'PATCH', path: '/realm', as, params });

/** What register shows `as` of the organization's settings. */
const realmState = async (as = 'hamlet@zulip.com') =>
  expectSuccess(await call(register, { method: 'POST', path: '/register', as, params: { fetch_event_types: ['realm'] } }));

const stored = async (realmId = 2) => (await realmsStore.get(realmId, { consistent: true }))!;

describe('PATCH /realm', () => {
  it("renames the organization: answers 'updated', tells every user, and register shows the new name", async () => {
    const queue = await openQueue('hamlet@zulip.com');
    const body = expectSuccess(await patch('iago@zulip.com', { name: 'Zulip Renamed' }));
    expect(body).toEqual({ result: 'success', msg: '', name: 'updated' });
    expect(await queue.drain()).toEqual([{ type: 'realm', op: 'update', property: 'name', value: 'Zulip Renamed' }]);
    expect((await realmState()).realm_name).toBe('Zulip Renamed');
  });

  it('changes the description', async () => {
    const queue = await openQueue('cordelia@zulip.com');
    expect(expectSuccess(await patch('iago@zulip.com', { description: 'About **us**' })).description).toBe('updated');
    expect(await queue.drain()).toEqual([{ type: 'realm', op: 'update', property: 'description', value: 'About **us**' }]);
    expect((await realmState()).realm_description).toBe('About **us**');
    const shown = expectSuccess(await call(serverSettings, { method: 'GET', path: '/server_settings' }));
    expect(shown.realm_description).toBe('<p>About <strong>us</strong></p>');
  });

  it('turns read receipts off and on again, and GET read_receipts follows', async () => {
    const m = await storeMessage({ sender: 10, channelId: 3 });
    const queue = await openQueue('hamlet@zulip.com');
    expect(expectSuccess(await patch('iago@zulip.com', { enable_read_receipts: false })).enable_read_receipts).toBe(false);
    expect(await queue.drain()).toEqual([{ type: 'realm', op: 'update', property: 'enable_read_receipts', value: false }]);
    expect((await realmState()).realm_enable_read_receipts).toBe(false);
    const receipts = () =>
      call(readReceipts, {
        method: 'GET',
        path: `/messages/${m.id}/read_receipts`,
        routeKey: 'GET /messages/{message_id}/read_receipts',
        pathParameters: { message_id: String(m.id) },
        as: 'hamlet@zulip.com',
      });
    expectError(await receipts(), 'Read receipts are disabled in this organization.');

    expectSuccess(await patch('iago@zulip.com', { enable_read_receipts: true }));
    expect(await queue.drain()).toEqual([{ type: 'realm', op: 'update', property: 'enable_read_receipts', value: true }]);
    expect((await realmState()).realm_enable_read_receipts).toBe(true);
    expectSuccess(await receipts());
  });

  it("sets the organization's language, answering 'updated', and refuses a code that names no language", async () => {
    const queue = await openQueue('hamlet@zulip.com');
    expect(expectSuccess(await patch('iago@zulip.com', { default_language: 'de' })).default_language).toBe('updated');
    expect(await queue.drain()).toEqual([{ type: 'realm', op: 'update', property: 'default_language', value: 'de' }]);
    expect((await realmState()).realm_default_language).toBe('de');
    expectError(await patch('iago@zulip.com', { default_language: 'xx' }), "Invalid language 'xx'");
    expect(await stored()).toMatchObject({ defaultLanguage: 'de' });
    expect(await queue.drain()).toEqual([]);
  });

  it('lets an owner change the waiting period, and refuses an administrator who is not an owner', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    expectError(
      await patch('iago@zulip.com', { waiting_period_threshold: 10 }),
      'Must be an organization owner',
      400,
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect((await stored()).waitingPeriodThreshold).toBe(0);
    expect(expectSuccess(await patch('desdemona@zulip.com', { waiting_period_threshold: 10 })).waiting_period_threshold).toBe(10);
    expect(await queue.drain()).toEqual([{ type: 'realm', op: 'update', property: 'waiting_period_threshold', value: 10 }]);
    expect((await realmState()).realm_waiting_period_threshold).toBe(10);
  });

  it('sends the edit limit and allow_message_editing as update_dict, as upstream does, and message edits follow the new limit', async () => {
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['realm'] });
    expect(expectSuccess(await patch('iago@zulip.com', { message_content_edit_limit_seconds: 1200 }))).toMatchObject({
      message_content_edit_limit_seconds: 1200,
    });
    expect(await queue.drain()).toEqual([
      { type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: 1200 } },
    ]);
    expect((await realmState()).realm_message_content_edit_limit_seconds).toBe(1200);

    // 700 seconds is past upstream's default limit (600 + 20 of grace), within the new one.
    freezeClock(Date.now());
    try {
      const m = await storeMessage({ sender: 10, channelId: 1 });
      advanceClock(700_000);
      expectSuccess(
        await call(updateMessage, {
          method: 'PATCH',
          path: `/messages/${m.id}`,
          routeKey: 'PATCH /messages/{message_id}',
          pathParameters: { message_id: String(m.id) },
          as: 'hamlet@zulip.com',
          params: { content: 'still editable' },
        }),
      );
    } finally {
      resetClock();
    }

    expectSuccess(await patch('iago@zulip.com', { allow_message_editing: false }));
    expect(await queue.drain()).toEqual([
      { type: 'realm', op: 'update_dict', property: 'default', data: { allow_message_editing: false } },
    ]);
    expect((await realmState()).realm_allow_message_editing).toBe(false);
    expectSuccess(await patch('iago@zulip.com', { allow_message_editing: true }));
    expect((await stored()).messageEditSettings).toEqual({ messageContentEditLimitSeconds: 1200, allowMessageEditing: true });
  });

  it('takes "unlimited" as no limit: the answer and the event carry null', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    const body = expectSuccess(
      await patch('iago@zulip.com', {
        message_content_delete_limit_seconds: '"unlimited"',
        message_content_edit_limit_seconds: '"unlimited"',
      }),
    );
    expect(body).toEqual({
      result: 'success',
      msg: '',
      message_content_delete_limit_seconds: null,
      message_content_edit_limit_seconds: null,
    });
    expect(await queue.drain()).toEqual([
      { type: 'realm', op: 'update', property: 'message_content_delete_limit_seconds', value: null },
      { type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: null } },
    ]);
    const state = await realmState();
    expect(state.realm_message_content_delete_limit_seconds).toBeNull();
    expect(state.realm_message_content_edit_limit_seconds).toBeNull();
  });

  it('sets the message move limits, sent as plain updates', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    const body = expectSuccess(
      await patch('iago@zulip.com', {
        move_messages_within_stream_limit_seconds: '"unlimited"',
        move_messages_between_streams_limit_seconds: 120,
      }),
    );
    expect(body).toEqual({
      result: 'success',
      msg: '',
      move_messages_within_stream_limit_seconds: null,
      move_messages_between_streams_limit_seconds: 120,
    });
    expect(await queue.drain()).toEqual([
      { type: 'realm', op: 'update', property: 'move_messages_within_stream_limit_seconds', value: null },
      { type: 'realm', op: 'update', property: 'move_messages_between_streams_limit_seconds', value: 120 },
    ]);
    const state = await realmState();
    expect(state.realm_move_messages_within_stream_limit_seconds).toBeNull();
    expect(state.realm_move_messages_between_streams_limit_seconds).toBe(120);
  });

  it('turns spectator access off and on: register refuses spectators meanwhile', async () => {
    const spectate = () => call(register, { method: 'POST', path: '/register', params: { fetch_event_types: ['realm'] } });
    expectSuccess(await spectate());
    const queue = await openQueue('hamlet@zulip.com');
    expect(expectSuccess(await patch('iago@zulip.com', { enable_spectator_access: false })).enable_spectator_access).toBe(false);
    expect(await queue.drain()).toEqual([{ type: 'realm', op: 'update', property: 'enable_spectator_access', value: false }]);
    expect((await realmState()).realm_enable_spectator_access).toBe(false);
    expectError(await spectate(), 'Not logged in: API authentication or user session required', 401, 'UNAUTHORIZED');
    expectSuccess(await patch('iago@zulip.com', { enable_spectator_access: true }));
    expectSuccess(await spectate());
  });

  it('changes several settings in one request, one event each', async () => {
    const queue = await openQueue('othello@zulip.com');
    const body = expectSuccess(
      await patch('iago@zulip.com', { name: 'Both', description: 'Both at once', message_content_delete_limit_seconds: 60 }),
    );
    expect(body).toEqual({ result: 'success', msg: '', message_content_delete_limit_seconds: 60, description: 'updated', name: 'updated' });
    expect(await queue.drain()).toEqual([
      { type: 'realm', op: 'update', property: 'message_content_delete_limit_seconds', value: 60 },
      { type: 'realm', op: 'update', property: 'description', value: 'Both at once' },
      { type: 'realm', op: 'update', property: 'name', value: 'Both' },
    ]);
  });

  it('keeps every one of concurrent changes to settings stored together (the message edit settings)', async () => {
    const version = (await stored()).settingsVersion ?? 0;
    const results = await Promise.all([
      patch('iago@zulip.com', { message_content_edit_limit_seconds: 900 }),
      patch('desdemona@zulip.com', { message_content_delete_limit_seconds: 901 }),
      patch('iago@zulip.com', { move_messages_within_stream_limit_seconds: 902 }),
      patch('iago@zulip.com', { name: 'Raced name' }),
    ]);
    results.forEach((r) => expectSuccess(r));
    const realm = await stored();
    expect(realm.messageEditSettings).toMatchObject({
      messageContentEditLimitSeconds: 900,
      messageContentDeleteLimitSeconds: 901,
      moveMessagesWithinStreamLimitSeconds: 902,
    });
    expect(realm).toMatchObject({ name: 'Raced name', settingsVersion: version + 4 });
  });

  it('answers success with nothing changed and no event for a value already set, or no setting at all', async () => {
    expectSuccess(await patch('iago@zulip.com', { name: 'Same' }));
    const queue = await openQueue('hamlet@zulip.com');
    const version = (await stored()).settingsVersion;
    expect(expectSuccess(await patch('iago@zulip.com', { name: 'Same' }))).toEqual({ result: 'success', msg: '' });
    expect(expectSuccess(await patch('iago@zulip.com', {}))).toEqual({ result: 'success', msg: '' });
    expect(expectSuccess(await patch('iago@zulip.com', { emoji: 'x' }))).toEqual({
      result: 'success',
      msg: '',
      ignored_parameters_unsupported: ['emoji'],
    });
    expect(await queue.drain()).toEqual([]);
    expect((await stored()).settingsVersion).toBe(version);
  });

  it('refuses members, moderators and guests before reading the parameters', async () => {
    const before = await stored();
    for (const as of ['hamlet@zulip.com', 'shiva@zulip.com', 'polonius@zulip.com']) {
      expectError(await patch(as, { name: 'x'.repeat(100) }), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
      expectError(await patch(as, { enable_read_receipts: false }), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
    }
    expect(await stored()).toEqual(before);
  });

  it.each([
    [{ name: 'x'.repeat(41) }, 'name is too long (limit: 40 characters)'],
    [{ name: 'Fine', description: 'x'.repeat(1001) }, 'description is too long (limit: 1000 characters)'],
    [{ enable_read_receipts: 1 }, 'enable_read_receipts is not a boolean'],
    [{ allow_message_editing: 'yes' }, 'allow_message_editing is not valid JSON'],
    [{ waiting_period_threshold: -1 }, 'waiting_period_threshold is too small'],
    [{ waiting_period_threshold: '"ten"' }, 'waiting_period_threshold is not an integer'],
    [{ message_content_edit_limit_seconds: 0 }, "Bad value for 'message_content_edit_limit_seconds': 0"],
    [{ message_content_delete_limit_seconds: '"forever"' }, "Bad value for 'message_content_delete_limit_seconds': forever"],
    [{ name: 'Fine', default_language: 'nope' }, "Invalid language 'nope'"],
    [{ message_content_edit_limit_seconds: 2 ** 31 }, 'message_content_edit_limit_seconds is too large'],
    [{ move_messages_within_stream_limit_seconds: '9007199254740993' }, 'move_messages_within_stream_limit_seconds is too large'],
    [{ name: 'Fine', message_content_edit_limit_seconds: -5 }, "Bad value for 'message_content_edit_limit_seconds': -5"],
    [
      { enable_spectator_access: false, move_messages_between_streams_limit_seconds: '"soon"' },
      "Bad value for 'move_messages_between_streams_limit_seconds': soon",
    ],
  ])('refuses bad value #%# with upstream’s message, and changes nothing', async (params, msg) => {
    const before = await stored();
    const queue = await openQueue('hamlet@zulip.com');
    expectError(await patch('desdemona@zulip.com', params), msg);
    expect(await stored()).toEqual(before);
    expect(await queue.drain()).toEqual([]);
  });

  it('reaches a client registering meanwhile exactly once: a rename during its state read is in the state, not again in its queue', async () => {
    const index = STATE_BUILDERS.indexOf(realmStateBuilder);
    let renamed = false;
    STATE_BUILDERS[index] = async (ctx) => {
      if (!renamed) {
        renamed = true;
        expectSuccess(await patch('iago@zulip.com', { name: 'Renamed meanwhile' }));
      }
      return realmStateBuilder(ctx);
    };
    let body: Record<string, any>;
    try {
      body = expectSuccess(
        await call(register, { method: 'POST', path: '/register', as: 'hamlet@zulip.com', params: { event_types: ['realm'] } }),
      );
    } finally {
      STATE_BUILDERS[index] = realmStateBuilder;
    }
    expect(body.realm_name).toBe('Renamed meanwhile');
    const events = expectSuccess(
      await call(getEvents, {
        method: 'GET',
        path: '/events',
        as: 'hamlet@zulip.com',
        params: { queue_id: body.queue_id, last_event_id: body.last_event_id, dont_block: true },
      }),
    ).events;
    expect(events).toEqual([]);
  });

  it("leaves another organization's settings and users alone", async () => {
    const lear = await stored(3);
    const queue = await openQueue('king@lear.org');
    expectSuccess(await patch('iago@zulip.com', { name: 'Only Zulip' }));
    expect(await stored(3)).toEqual(lear);
    expect(await queue.drain()).toEqual([]);
    expect((await realmState('king@lear.org')).realm_name).toBe(lear.name);
  });
});
