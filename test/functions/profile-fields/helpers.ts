import { handler as create } from '../../../functions/profile-fields/create';
import { handler as remove } from '../../../functions/profile-fields/delete';
import { handler as list } from '../../../functions/profile-fields/list';
import { handler as reorder } from '../../../functions/profile-fields/reorder';
import { handler as update } from '../../../functions/profile-fields/update';
import type { CustomProfileField } from '../../../lib/models/custom-profile-field';
import * as fieldsStore from '../../../lib/store/custom-profile-fields';
import { call } from '../../helpers/api';

const atField = (method: string, fieldId: number | string) => ({
  method,
  path: `/realm/profile_fields/${fieldId}`,
  routeKey: `${method} /realm/profile_fields/{field_id}`,
  pathParameters: { field_id: String(fieldId) },
});

export const listFields = (as: string) => call(list, { method: 'GET', path: '/realm/profile_fields', as });
export const createField = (as: string, params: Record<string, unknown>) =>
  call(create, { method: 'POST', path: '/realm/profile_fields', as, params });
export const updateField = (as: string, fieldId: number | string, params: Record<string, unknown>) =>
  call(update, { ...atField('PATCH', fieldId), as, params });
export const deleteField = (as: string, fieldId: number | string) => call(remove, { ...atField('DELETE', fieldId), as });
export const reorderFields = (as: string, order: unknown) =>
  call(reorder, { method: 'PATCH', path: '/realm/profile_fields', as, params: order === undefined ? {} : { order } });

/** The organization's stored fields, in display order (strongly consistent). */
export const storedFields = async (realmId = 2): Promise<CustomProfileField[]> =>
  fieldsStore.listFieldsOfRealm(realmId, { consistent: true });
