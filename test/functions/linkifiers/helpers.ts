import { handler as create } from '../../../functions/linkifiers/create';
import { handler as list } from '../../../functions/linkifiers/list';
import { handler as reorder } from '../../../functions/linkifiers/reorder';
import { call, expectSuccess } from '../../helpers/api';

export const listIds = async (as = 'iago@zulip.com'): Promise<number[]> =>
  (expectSuccess(await call(list, { method: 'GET', path: '/realm/linkifiers', as })).linkifiers as { id: number }[]).map((l) => l.id);

export const patchOrder = (as: string, ids: unknown) =>
  call(reorder, { method: 'PATCH', path: '/realm/linkifiers', as, params: { ordered_linkifier_ids: ids } });

export const addLinkifier = (as: string, pattern: string, urlTemplate: string) =>
  call(create, { method: 'POST', path: '/realm/filters', as, params: { pattern, url_template: urlTemplate } });
