// The transport below every push path (lib/store/push-bouncer.ts talks HTTP): registering this
// server and its organizations with the push bouncer, a request about one organization that
// registers them when the bouncer does not know them yet, and a test notification sent in the
// request. Both the end-to-end path (notifications.ts) and the legacy one (legacy.ts) send through it.
import { config, SERVICE_VERSION } from '../../config';
import { ApiError, ErrorCode } from '../../errors';
import { realmPushIdentity } from '../../models/push-notifications';
import { realmUrl, type Realm } from '../../models/realm';
import { BouncerRefusedError, BouncerRetryLaterError, sendToBouncer, type BouncerBody } from '../../store/push-bouncer';

// ---------------------------------------------------------------------------------------------
// Registering this server and its organizations with the bouncer.

/**
 * Registers this server with the bouncer (upstream's `manage.py register_server`: POST
 * remotes/server/register with its id and key, which the bouncer accepts again for the same
 * pair), then uploads the organizations (upstream's send_server_data_to_push_bouncer: POST
 * remotes/server/analytics with each organization's uuid; no usage statistics). Throws the
 * bouncer's refusal (a wrong key for a registered id: INVALID_ZULIP_SERVER).
 */
export const doRegisterServerWithBouncer = async (realms: Realm[]): Promise<void> => {
  const bouncer = config.pushBouncer();
  if (!bouncer) throw new Error('the push notification service is not configured (PUSH_BOUNCER_URL, ZULIP_ORG_ID, ZULIP_ORG_KEY)');
  await sendToBouncer('server/register', {
    form: {
      zulip_org_id: bouncer.orgId,
      zulip_org_key: bouncer.orgKey,
      hostname: new URL(config.externalUrl()).host,
      contact_email: config.pushContactEmail(),
    },
  });
  await sendToBouncer('server/analytics', {
    form: {
      realm_counts: '[]',
      installation_counts: '[]',
      realmauditlog_rows: '[]',
      realms: JSON.stringify(
        realms.map((realm) => {
          const identity = realmPushIdentity(realm.id, bouncer);
          return {
            id: realm.id,
            host: new URL(realmUrl(realm)).host,
            url: realmUrl(realm),
            name: realm.name,
            org_type: 0,
            date_created: realm.dateCreated,
            deactivated: realm.deactivated,
            is_system_bot_realm: false,
            authentication_methods: {},
            uuid: identity.uuid,
            uuid_owner_secret: identity.uuidOwnerSecret,
          };
        }),
      ),
      version: JSON.stringify(SERVICE_VERSION.version),
      merge_base: JSON.stringify(''),
      api_feature_level: JSON.stringify(SERVICE_VERSION.featureLevel),
    },
  });
};

/**
 * Sends a request about one organization; when the bouncer does not know this server or the
 * organization yet (INVALID_ZULIP_SERVER, MISSING_REMOTE_REALM), registers them (upstream makes
 * an administrator run register_server; here the first use does it) and sends it once more.
 */
export const sendForRealm = async (realm: Realm, send: (realmUuid: string) => Promise<unknown>): Promise<void> => {
  const bouncer = config.pushBouncer()!;
  const { uuid } = realmPushIdentity(realm.id, bouncer);
  try {
    await send(uuid);
  } catch (error) {
    if (!(error instanceof BouncerRefusedError) || (error.code !== 'MISSING_REMOTE_REALM' && error.code !== 'INVALID_ZULIP_SERVER'))
      throw error;
    await doRegisterServerWithBouncer([realm]);
    await send(uuid);
  }
};

/** How long the test notification's request waits for the bouncer (inside a route function's 10 s). */
const TEST_NOTIFICATION_TIMEOUT_MS = 5_000;

/**
 * Sends a test notification to the bouncer in the request (the app shows the outcome), waiting at
 * most TEST_NOTIFICATION_TIMEOUT_MS, and answers the bouncer's failures as upstream's: one that
 * cannot be reached 502 FAILED_TO_CONNECT_BOUNCER, one that fails 502
 * INTERNAL_SERVER_ERROR_ON_BOUNCER, a refusal that `refused` does not name 403 ADMIN_ACTION_REQUIRED.
 */
export const sendTestToBouncer = async (
  realm: Realm,
  request: (realmUuid: string) => [string, BouncerBody],
  refused: (error: BouncerRefusedError) => ApiError | undefined = () => undefined,
): Promise<void> => {
  try {
    await sendForRealm(realm, (realmUuid) => sendToBouncer(...request(realmUuid), { timeoutMs: TEST_NOTIFICATION_TIMEOUT_MS }));
  } catch (error) {
    if (error instanceof BouncerRetryLaterError)
      throw error.kind === 'network'
        ? new ApiError('Network error while connecting to Zulip push notification service.', {
            statusCode: 502,
            code: ErrorCode.FAILED_TO_CONNECT_BOUNCER,
          })
        : new ApiError('Internal server error on Zulip push notification service, retry later.', {
            statusCode: 502,
            code: ErrorCode.INTERNAL_SERVER_ERROR_ON_BOUNCER,
          });
    if (error instanceof BouncerRefusedError)
      throw (
        refused(error) ??
        new ApiError('Push notification configuration issue on server, contact the server administrator or retry later.', {
          statusCode: 403,
          code: ErrorCode.ADMIN_ACTION_REQUIRED,
        })
      );
    throw error;
  }
};
