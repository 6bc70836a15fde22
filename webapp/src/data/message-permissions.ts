// What the menus offer on a message, by upstream's defaults: my own messages' content while the
// organization allows editing and within its time limit; deleting my own within the delete limit,
// anyone's as an administrator or owner. The server checks again and its refusal is shown.
import type { Message } from '../api/types';
import { withinLimit, type Settings } from './settings';

/** Upstream's roles: 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest. */
export const ROLE_NAMES: Record<number, string> = { 100: 'Owner', 200: 'Administrator', 300: 'Moderator', 400: 'Member', 600: 'Guest' };

const isAdmin = (role: number | undefined): boolean => role !== undefined && role <= 200;

export const canEdit = (message: Message, me: number, settings: Settings, nowSeconds: number): boolean =>
  message.sender_id === me && settings.allowEditing && withinLimit(settings.editLimit, message.timestamp, nowSeconds);

export const canDelete = (message: Message, me: number, role: number | undefined, settings: Settings, nowSeconds: number): boolean =>
  isAdmin(role) || (message.sender_id === me && withinLimit(settings.deleteLimit, message.timestamp, nowSeconds));
