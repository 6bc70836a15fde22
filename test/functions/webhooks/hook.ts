// Calling POST /api/v1/external/{integration_name} as API Gateway would, and reading back what it
// posted, for the webhook tests. Development data: webhook-bot 17 (an incoming-webhook bot owned
// by ZOE 7), iago 11, hamlet 10, othello 12.
import { handler as webhook } from '../../../functions/webhooks/incoming';
import { handler as subscribe } from '../../../functions/channels/subscribe';
import type { Message } from '../../../lib/models/message';
import * as messagesStore from '../../../lib/store/messages';
import * as usersStore from '../../../lib/store/users';
import { call, expectSuccess, type ApiResult } from '../../helpers/api';

export const BOT_ID = 17;
export const OWNER_ID = 7;
export const IAGO_ID = 11;
export const HAMLET_ID = 10;
export const OTHELLO_ID = 12;

export const botKey = async (): Promise<string> => (await usersStore.get(2, BOT_ID, { consistent: true }))!.apiKey;

export type HookOptions = {
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string;
  contentType?: string;
  /** The path's integration segment as API Gateway passes it (a trailing slash included). */
  name?: string;
  authorization?: string;
};

/** POSTs `body` (JSON by default) to the integration, with the bot's key unless `query` says otherwise. */
export const hook = async (integration: string, opts: HookOptions = {}): Promise<ApiResult> => {
  const name = opts.name ?? integration;
  return call(webhook, {
    method: 'POST',
    path: `/external/${name}`,
    routeKey: 'POST /external/{integration_name+}',
    pathParameters: { integration_name: name },
    query: opts.query ?? { api_key: await botKey(), stream: 'hooks' },
    headers: opts.headers,
    authorization: opts.authorization,
    rawBody: { body: opts.body ?? '{}', contentType: opts.contentType ?? 'application/json' },
  });
};

/** Creates the channel `name` with iago and hamlet subscribed (othello is not). */
export const createChannel = async (name: string): Promise<void> => {
  expectSuccess(
    await call(subscribe, {
      method: 'POST',
      path: '/users/me/subscriptions',
      as: 'iago@zulip.com',
      params: { subscriptions: [{ name }], principals: [IAGO_ID, HAMLET_ID] },
    }),
  );
};

/** The newest message a user holds, if any. */
export const newestMessageOf = async (userId: number): Promise<Message | undefined> => {
  const id = await messagesStore.getNewestMessageIdOfUser(userId);
  return id === undefined ? undefined : messagesStore.getMessage(2, id, { consistent: true });
};

/** Which of `userIds` received the message. */
export const receiversOf = async (messageId: number, userIds: number[]): Promise<number[]> =>
  (await messagesStore.getRowsOfMessage(messageId, userIds)).map((row) => row.userId).sort((a, b) => a - b);
