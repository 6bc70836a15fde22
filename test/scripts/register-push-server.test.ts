// `npm run register-push-server` (upstream's register_server) against the local push bouncer, as
// a server of this file's own (test/helpers/push.ts).
import { OperatorError } from '../../lib/actions/organization/operator';
import { runOperatorCommand } from '../../scripts/operator';
import { bouncerState, usePushBouncer } from '../helpers/push';

const server = usePushBouncer();

describe('npm run register-push-server', () => {
  it('registers this server and uploads every organization', async () => {
    const lines = await runOperatorCommand('register-push-server', []);
    expect(lines).toEqual([`Registered this server as ${server.orgId()} with ${process.env.PUSH_BOUNCER_URL}, with 2 organizations.`]);
    const bouncer = await bouncerState();
    expect(bouncer.servers).toEqual([{ id: server.orgId(), hostname: 'localhost:3000', contactEmail: 'admin@localhost' }]);
    expect(bouncer.realms.map((r) => [r.name, r.url])).toEqual([
      ['Zulip Dev', 'http://localhost:3000'],
      ['Lear & Co.', 'http://lear.localhost:3000'],
    ]);
    expect(new Set(bouncer.realms.map((r) => r.uuid)).size).toBe(2);
  });

  it('can run again, and keeps the same organization ids', async () => {
    const before = (await bouncerState()).realms.map((r) => r.uuid);
    await runOperatorCommand('register-push-server', []);
    expect((await bouncerState()).realms.map((r) => r.uuid)).toEqual(before);
  });

  it('refuses when the bouncer refuses this server (another key for a registered id)', async () => {
    const key = process.env.ZULIP_ORG_KEY;
    process.env.ZULIP_ORG_KEY = 'f'.repeat(64);
    try {
      await expect(runOperatorCommand('register-push-server', [])).rejects.toThrow(
        new OperatorError(
          `The push notification service at ${process.env.PUSH_BOUNCER_URL} refused: Zulip server auth failure: key does not match role ${server.orgId()}`,
        ),
      );
    } finally {
      process.env.ZULIP_ORG_KEY = key;
    }
  });

  it('refuses when push notifications are not configured', async () => {
    const url = process.env.PUSH_BOUNCER_URL;
    delete process.env.PUSH_BOUNCER_URL;
    try {
      await expect(runOperatorCommand('register-push-server', [])).rejects.toThrow(
        new OperatorError('Push notifications are not configured: set PUSH_BOUNCER_URL, ZULIP_ORG_ID and ZULIP_ORG_KEY.'),
      );
    } finally {
      process.env.PUSH_BOUNCER_URL = url;
    }
  });
});
