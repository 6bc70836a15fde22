// What the scheduled-message tests share: the four routes, called as a client would.
import { handler as create } from '../../../functions/scheduled-messages/create';
import { handler as list } from '../../../functions/scheduled-messages/list';
import { handler as update } from '../../../functions/scheduled-messages/update';
import { handler as remove } from '../../../functions/scheduled-messages/delete';
import { nowSeconds } from '../../../lib/clock';
import * as scheduledStore from '../../../lib/store/scheduled-messages';
import { clearInProcessSchedules } from '../../../lib/store/schedules';
import { openQueue } from '../../helpers/events';
import { call, expectSuccess, type ApiResult } from '../../helpers/api';

export const FUTURE = 4102444800;
/** A minute from now on the service clock. */
export const soon = (): number => nowSeconds() + 60;

export const schedule = (as: string, params: Record<string, unknown>): Promise<ApiResult> =>
  call(create, { method: 'POST', path: '/scheduled_messages', as, params });

export const scheduleId = async (as: string, params: Record<string, unknown>): Promise<number> =>
  expectSuccess(await schedule(as, params)).scheduled_message_id as number;

export const listScheduled = async (as: string): Promise<Record<string, any>[]> =>
  expectSuccess(await call(list, { method: 'GET', path: '/scheduled_messages', as })).scheduled_messages;

const onId = (method: string, id: number | string) => ({
  method,
  path: `/scheduled_messages/${id}`,
  routeKey: `${method} /scheduled_messages/{scheduled_message_id}`,
  pathParameters: { scheduled_message_id: String(id) },
});

export const editScheduled = (as: string, id: number | string, params: Record<string, unknown>): Promise<ApiResult> =>
  call(update, { ...onId('PATCH', id), as, params });

export const deleteScheduled = (as: string, id: number | string): Promise<ApiResult> => call(remove, { ...onId('DELETE', id), as });

/** Everything stored of a user's scheduled messages, to check that a refused request changed nothing. */
export const storedOf = (userId: number) => scheduledStore.listScheduledMessagesOfUser(userId);

/**
 * A first send loads and prepares much (the renderer, the event path): done once per file before
 * its tests, by a user the tests leave alone (Desdemona), so that no test's time limit pays for it.
 */
export const warmUp = (): void =>
  beforeAll(async () => {
    await openQueue('desdemona@zulip.com');
    expectSuccess(
      await schedule('desdemona@zulip.com', { type: 'direct', to: [9], content: '**warm**', scheduled_delivery_timestamp: FUTURE }),
    );
    clearInProcessSchedules();
  }, 120_000);
