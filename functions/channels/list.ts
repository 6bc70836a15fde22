// GET /streams: the channels the caller asks for (upstream's include_* filters), by name.
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { channelReadContext, listChannelsForQuery } from '../../lib/state/channels';
import { bool } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ realm, user, params }) => {
  const p = params({
    include_public: json(bool).default(true),
    include_web_public: json(bool).default(false),
    include_subscribed: json(bool).default(true),
    exclude_archived: json(bool).default(true),
    include_all: json(bool).default(false).alias('include_all_active'),
    include_default: json(bool).default(false),
    include_owner_subscribed: json(bool).default(false),
    include_can_access_content: json(bool).default(false),
  });
  const streams = await listChannelsForQuery(channelReadContext(realm, user), user, {
    includePublic: p.include_public,
    includeWebPublic: p.include_web_public,
    includeSubscribed: p.include_subscribed,
    excludeArchived: p.exclude_archived,
    includeAll: p.include_all,
    includeDefault: p.include_default,
    includeOwnerSubscribed: p.include_owner_subscribed,
    includeCanAccessContent: p.include_can_access_content,
  });
  return { streams };
});
