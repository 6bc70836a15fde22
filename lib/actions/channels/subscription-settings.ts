// The caller's own settings of their subscriptions (upstream's update_subscription_properties_backend).
import { accessChannelWithViewer } from '../../access/channels';
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import { type Subscription } from '../../models/channel';
import type { SubscriptionEvent } from '../../models/event';
import { type User } from '../../models/user';
import * as channelsStore from '../../store/channels';
import { hexColor } from '../../validation/validators';

/** The subscription properties a user may change, by wire name: the stored field and its type. */
const SUBSCRIPTION_PROPERTIES: Record<string, { field: keyof Subscription; kind: 'bool' | 'color' | 'inverted' }> = {
  color: { field: 'color', kind: 'color' },
  is_muted: { field: 'isMuted', kind: 'bool' },
  in_home_view: { field: 'isMuted', kind: 'inverted' },
  pin_to_top: { field: 'pinToTop', kind: 'bool' },
  desktop_notifications: { field: 'desktopNotifications', kind: 'bool' },
  audible_notifications: { field: 'audibleNotifications', kind: 'bool' },
  push_notifications: { field: 'pushNotifications', kind: 'bool' },
  email_notifications: { field: 'emailNotifications', kind: 'bool' },
  wildcard_mentions_notify: { field: 'wildcardMentionsNotify', kind: 'bool' },
};

export type SubscriptionPropertyChange = { stream_id: number; property: string; value: unknown };

/**
 * POST /users/me/subscriptions/properties (and PATCH /users/me/subscriptions/{stream_id}, one
 * change), as upstream's update_subscription_properties_backend. Checks every change before
 * writing any: first each change's property and value, as upstream parses the request ("Unknown
 * subscription property: {property}", "{property} is not a boolean", "{property} is not a valid
 * hex color code"), then each channel in order: content access ("Invalid channel ID") and an
 * active subscription ("Not subscribed to channel ID {id}"). Writes each change to the caller's row
 * (conditional on it being active). Emits `subscription` update to the caller, and for is_muted or
 * in_home_view also the other of the two (the legacy inverse).
 */
export const doChangeSubscriptionProperties = async (user: User, changes: SubscriptionPropertyChange[]): Promise<void> => {
  const checked: { change: SubscriptionPropertyChange; field: keyof Subscription; stored: unknown }[] = [];
  for (const change of changes) {
    const spec = SUBSCRIPTION_PROPERTIES[change.property];
    if (!spec) throw new BadRequestError(`Unknown subscription property: ${change.property}`);
    if (spec.kind === 'color') {
      hexColor()(change.value, change.property);
    } else if (typeof change.value !== 'boolean') {
      throw new BadRequestError(`${change.property} is not a boolean`);
    }
    checked.push({ change, field: spec.field, stored: spec.kind === 'inverted' ? !change.value : change.value });
  }
  for (const { change } of checked) {
    const { viewer } = await accessChannelWithViewer(user, change.stream_id, 'Invalid channel ID');
    if (!viewer.subscribed) throw new BadRequestError(`Not subscribed to channel ID ${change.stream_id}`);
  }
  for (const { change, field, stored } of checked) {
    if (!(await channelsStore.updateSubscriptionSettings(user.id, change.stream_id, { [field]: stored }))) {
      throw new BadRequestError(`Not subscribed to channel ID ${change.stream_id}`);
    }
    const events: SubscriptionEvent[] = [
      { type: 'subscription', op: 'update', stream_id: change.stream_id, property: change.property, value: change.value },
    ];
    if (field === 'isMuted') {
      const other = change.property === 'is_muted' ? 'in_home_view' : 'is_muted';
      events.push({
        type: 'subscription',
        op: 'update',
        stream_id: change.stream_id,
        property: other,
        value: other === 'is_muted' ? stored : !stored,
      });
    }
    for (const event of events) await sendEvent(user.realmId, event, { users: [user.id] });
  }
};
