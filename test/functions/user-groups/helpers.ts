import { handler as create } from '../../../functions/user-groups/create';
import { handler as deactivate } from '../../../functions/user-groups/deactivate';
import { handler as update } from '../../../functions/user-groups/update';
import * as groupsStore from '../../../lib/store/user-groups';
import { call } from '../../helpers/api';

export const createGroup = (as: string, params: Record<string, unknown>) =>
  call(create, { method: 'POST', path: '/user_groups/create', as, params: { description: '', members: [], ...params } });

export const patchGroup = (as: string, groupId: number, params: Record<string, unknown>) =>
  call(update, {
    method: 'PATCH',
    path: `/user_groups/${groupId}`,
    routeKey: 'PATCH /user_groups/{user_group_id}',
    pathParameters: { user_group_id: String(groupId) },
    as,
    params,
  });

export const deactivateGroup = (as: string, groupId: number | string) =>
  call(deactivate, {
    method: 'POST',
    path: `/user_groups/${groupId}/deactivate`,
    routeKey: 'POST /user_groups/{user_group_id}/deactivate',
    pathParameters: { user_group_id: String(groupId) },
    as,
  });

export const storedGroup = (groupId: number, realmId = 2) => groupsStore.getGroup(realmId, groupId, { consistent: true });
