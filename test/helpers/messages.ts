// The message requests handler tests make again and again, through the real handlers: a send, an
// edit or move, a deletion. A file names them as it likes (`import { sendMessage as send }`).
import { handler as deleteHandler } from '../../functions/messages/delete';
import { handler as sendHandler } from '../../functions/messages/send';
import { handler as updateHandler } from '../../functions/messages/update';
import { call, expectSuccess, type ApiResult } from './api';

type Options = { settleJobs?: boolean; headers?: Record<string, string> };

/** POST /messages as `as`; the answer (its background jobs run before it returns, unless `settleJobs: false`). */
export const sendMessage = (as: string, params: Record<string, unknown>, opts: Options = {}): Promise<ApiResult> =>
  call(sendHandler, { method: 'POST', path: '/messages', as, params, ...opts });

/** POST /messages as `as`, which must succeed: the new message's id. */
export const sendMessageId = async (as: string, params: Record<string, unknown>, opts: Options = {}): Promise<number> =>
  expectSuccess(await sendMessage(as, params, opts)).id as number;

/** PATCH /messages/{message_id} as `as`: an edit or a move. */
export const editMessage = (as: string, messageId: number, params: Record<string, unknown>, opts: Options = {}): Promise<ApiResult> =>
  call(updateHandler, {
    method: 'PATCH',
    path: `/messages/${messageId}`,
    as,
    params,
    pathParameters: { message_id: String(messageId) },
    ...opts,
  });

/** DELETE /messages/{message_id} as `as`. */
export const deleteMessage = (as: string, messageId: number): Promise<ApiResult> =>
  call(deleteHandler, { method: 'DELETE', path: `/messages/${messageId}`, as, pathParameters: { message_id: String(messageId) } });
