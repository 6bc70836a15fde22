// POST /api/v1/external/grafana and /alertmanager: alerting services, as upstream's integrations
// post them. The payloads are this project's own.
import { expectError, expectSuccess } from '../../helpers/api';
import { IAGO_ID, botKey, createChannel, hook, newestMessageOf } from './hook';

beforeAll(async () => {
  await createChannel('hooks');
});

const post = async (integration: string, payload: unknown, query: Record<string, string> = {}) =>
  hook(integration, { body: JSON.stringify(payload), query: { api_key: await botKey(), stream: 'hooks', ...query } });
const newest = async () => (await newestMessageOf(IAGO_ID))!;

describe('POST /external/grafana', () => {
  const alert = {
    status: 'firing',
    labels: { alertname: 'Disk full', host: 'db1' },
    annotations: { summary: 'Only 2% left' },
    startsAt: '2026-01-02T03:04:05Z',
    endsAt: '0001-01-01T00:00:00Z',
    values: { A: 98, B: 0.5 },
    generatorURL: 'https://grafana.example/alerting/1',
    fingerprint: 'abc123',
  };

  it('posts each alert of Grafana 8 and later to the topic of its name', async () => {
    expectSuccess(await post('grafana', { alerts: [alert] }));
    expect(await newest()).toMatchObject({
      topic: '[Disk full]',
      content:
        ':alert: **FIRING**\n\n**Disk full**\n\nThis alert was fired at <time:2026-01-02T03:04:05Z>.\n\n' +
        'Labels:\n- alertname: Disk full\n- host: db1\n\nValues:\n- A: 98\n- B: 0.5\n\n' +
        'Annotations:\n- summary: Only 2% left\n\n[Generator](https://grafana.example/alerting/1)',
    });
  });

  it('posts a Grafana 7 alert to the topic of its title', async () => {
    const legacy = {
      title: '[Alerting] Load',
      ruleName: 'Load',
      ruleUrl: 'https://grafana.example/r',
      state: 'alerting',
      evalMatches: [{ metric: 'load', value: 7 }],
    };
    expectSuccess(await post('grafana', legacy));
    expect(await newest()).toMatchObject({
      topic: '[Alerting] Load',
      content: ':alert: **ALERTING**\n\n[Load](https://grafana.example/r)\n\n**load:** 7',
    });
  });

  it('leaves out the states exclude_events names', async () => {
    const before = (await newest()).id;
    expectSuccess(await post('grafana', { alerts: [alert] }, { exclude_events: '["firing"]' }));
    expect((await newest()).id).toBe(before);
  });

  it('answers 400 for an alert of an unknown status, and posts nothing', async () => {
    const before = (await newest()).id;
    expectError(await post('grafana', { alerts: [{ ...alert, status: 'exploding' }] }), 'Invalid payload["alerts"][0]["status"]');
    expect((await newest()).id).toBe(before);
  });
});

describe('POST /external/alertmanager', () => {
  const alert = (status: string, description: string) => ({
    status,
    labels: { alertname: 'Hot', instance: 'rack-3' },
    annotations: { description },
    generatorURL: 'https://prom.example/graph?g0.tab=1',
  });

  it('groups the firing alerts of an instance in one message, with the tab of the graph', async () => {
    expectSuccess(await post('alertmanager', { alerts: [alert('firing', 'Fan 1'), alert('firing', 'Fan 2')] }, { desc: 'description' }));
    expect(await newest()).toMatchObject({
      topic: 'rack-3',
      content:
        ':alert: **FIRING**\n* Fan 1 ([source](https://prom.example/graph?g0.tab=0))\n* Fan 2 ([source](https://prom.example/graph?g0.tab=0))',
    });
  });

  it('posts one resolved alert on one line', async () => {
    expectSuccess(await post('alertmanager', { alerts: [alert('resolved', 'Fan 1')] }));
    expect((await newest()).content).toBe(':squared_ok: **Resolved** Hot ([source](https://prom.example/graph?g0.tab=0))');
  });

  it('answers 400 for alerts that are not a list', async () => {
    expectError(await post('alertmanager', { alerts: {} }), 'payload["alerts"] is not a list');
  });
});
