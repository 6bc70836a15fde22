// realm_linkifiers events carry RFC 6570 URL templates: only queues that declared the
// linkifier_url_template capability receive them (upstream sends them to every client, but clients
// without the capability drop them; this server does not deliver what the client cannot use).
import type { QueueDescriptor, RealmLinkifiersEvent } from '../../models/event';

export const realmLinkifiersEventForQueue = (queue: QueueDescriptor, event: RealmLinkifiersEvent): RealmLinkifiersEvent | null =>
  queue.capabilities.linkifier_url_template === true ? event : null;
