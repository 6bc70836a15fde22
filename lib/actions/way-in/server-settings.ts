import { config, SERVICE_VERSION } from '../../config';
import { BadRequestError } from '../../errors';
import { subdomainOf } from '../../models/realm';
import { renderPlainMarkdown } from '../../render';
import { serverAuthenticationMethods } from '../../models/authentication';
import type { Realm } from '../../models/realm';
import { realmUrl } from '../../models/realm';
import { realmIconUrl } from '../../models/realm-images';
import * as channelsStore from '../../store/channels';

/**
 * GET /server_settings for the organization the host names (`realm`, as realmForHost resolves
 * it; a deactivated one is still described). An unknown subdomain is upstream's 400 "Invalid
 * subdomain". `userAgent` only serves upstream's test hook (`ZulipInvalid` → is_incompatible).
 * Reads the organization's channels (for web-public access); writes nothing, emits nothing.
 */
export const serverSettings = async (
  realm: Realm | undefined,
  host: string | undefined,
  userAgent: string | undefined,
): Promise<Record<string, unknown>> => {
  if (!realm && subdomainOf(host) !== undefined) throw new BadRequestError('Invalid subdomain');
  const url = realm ? realmUrl(realm) : new URL(config.externalUrl()).origin;
  const webPublic =
    realm !== undefined && realm.enableSpectatorAccess && (await channelsStore.listChannelsOfRealm(realm.id)).some((c) => c.isWebPublic);
  return {
    authentication_methods: serverAuthenticationMethods(),
    external_authentication_methods: [],
    zulip_feature_level: SERVICE_VERSION.featureLevel,
    zulip_version: SERVICE_VERSION.version,
    zulip_merge_base: SERVICE_VERSION.mergeBase,
    push_notifications_enabled: config.pushBouncer() !== undefined,
    is_incompatible: (userAgent ?? '').split('/')[0] === 'ZulipInvalid',
    email_auth_enabled: true,
    require_email_format_usernames: true,
    realm_url: url,
    realm_uri: url,
    realm_web_public_access_enabled: webPublic,
    ...(realm
      ? { realm_name: realm.name, realm_icon: realmIconUrl(realm), realm_description: renderPlainMarkdown(realm.description) }
      : {}),
  };
};
