// POST /api/v1/external/jira: Jira's events as upstream's integration posts them, its markup, the
// people it names, and its double-encoded URL parameters. The payloads are this project's own.
import { expectError, expectSuccess } from '../../helpers/api';
import { IAGO_ID, botKey, createChannel, hook, newestMessageOf } from './hook';

beforeAll(async () => {
  await createChannel('hooks');
  await createChannel('jira alerts');
});

const issue = (fields: Record<string, unknown>) => ({
  self: 'https://jira.example/rest/api/2/issue/7',
  key: 'POT-7',
  fields: { summary: 'Handle is hot', ...fields },
});
const user = { displayName: 'Grace' };
const post = async (payload: unknown, query: Record<string, string> = { stream: 'hooks' }) =>
  hook('jira', { body: JSON.stringify(payload), query: { api_key: await botKey(), ...query } });
const newest = async () => (await newestMessageOf(IAGO_ID))!;

describe('POST /external/jira', () => {
  it('posts a created issue to the topic of its key and summary', async () => {
    expectSuccess(await post({ webhookEvent: 'jira:issue_created', user, issue: issue({ priority: { name: 'High' }, assignee: null }) }));
    expect(await newest()).toMatchObject({
      topic: 'POT-7: Handle is hot',
      content: 'Grace created [POT-7: Handle is hot](https://jira.example/browse/POT-7):\n\n* **Priority**: High\n* **Assignee**: no one',
    });
  });

  it('names the assignee by their account here and converts the comment markup', async () => {
    const payload = {
      webhookEvent: 'jira:issue_updated',
      issue_event_type_name: 'issue_commented',
      user,
      issue: issue({ assignee: { emailAddress: 'hamlet@zulip.com' } }),
      comment: { body: 'Use *oven gloves* and {{tongs}} [~king hamlet]' },
    };
    expectSuccess(await post(payload));
    const hamlet = 'King Hamlet';
    expect((await newest()).content).toBe(
      `Grace commented on [POT-7: Handle is hot](https://jira.example/browse/POT-7) (assigned to **${hamlet}**):\n\n\`\`\` quote\nUse **oven gloves** and \`tongs\` **${hamlet}**\n\`\`\``,
    );
  });

  it('decodes the double-encoded channel and topic', async () => {
    expectSuccess(
      await post({ webhookEvent: 'jira:issue_deleted', user, issue: issue({}) }, { stream: 'jira%20alerts', topic: 'hot%20handles' }),
    );
    expect(await newest()).toMatchObject({
      topic: 'hot handles',
      content: 'Grace deleted [POT-7: Handle is hot](https://jira.example/browse/POT-7).',
    });
  });

  it('ignores what upstream ignores, and refuses what is not Jira, posting nothing', async () => {
    const before = (await newest()).id;
    expectSuccess(await post({ webhookEvent: 'sprint_started' }));
    expectError(await post({ hello: 'world' }), 'Unable to parse request: Did Jira generate this event?', 400, 'ANOMALOUS_WEBHOOK_PAYLOAD');
    const unsupported = await post({ webhookEvent: 'board_created' });
    expect({ status: unsupported.status, code: unsupported.body.code }).toEqual({ status: 200, code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE' });
    expectError(
      await post({ webhookEvent: 'jira:issue_created', user: { displayName: 5 }, issue: issue({}) }),
      'payload["user"]["displayName"] is not a string',
    );
    expect((await newest()).id).toBe(before);
  });
});
