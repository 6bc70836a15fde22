// Prometheus Alertmanager (upstream's zerver/webhooks/alertmanager): the alerts grouped into one
// message per topic and status; the topic is the label or annotation `name` names (default
// "instance"), the line the one `desc` names (default "alertname").
import { BadRequestError } from '../../errors';
import type { Wild } from '../payload';
import type { Integration, WebhookMessage } from '../types';

/** A label, else an annotation, of that name. */
const field = (alert: Wild, name: string, fallback: string): string => {
  for (const group of ['labels', 'annotations']) if (alert.get(group).has(name)) return alert.get(group).get(name).str();
  return fallback;
};

export const alertmanager: Integration = {
  name: 'alertmanager',
  clientName: 'Alertmanager',
  title: 'Prometheus Alertmanager',
  body: 'json',
  receive: ({ payload, param }) => {
    const nameField = param('name') ?? 'instance';
    const descField = param('desc') ?? 'alertname';
    const topics = new Map<string, { firing: string[]; resolved: string[] }>();
    for (const alert of payload.get('alerts').list()) {
      const name = field(alert, nameField, '(unknown)');
      const desc = field(alert, descField, `<missing field: ${descField}>`);
      const url = alert.get('generatorURL').str().replaceAll('tab=1', 'tab=0');
      const status = alert.get('status').str();
      if (status !== 'firing' && status !== 'resolved') throw new BadRequestError(`Invalid ${alert.get('status').path}`);
      if (!topics.has(name)) topics.set(name, { firing: [], resolved: [] });
      topics.get(name)![status].push(`${desc} ([source](${url}))`);
    }
    const messages: WebhookMessage[] = [];
    for (const [topic, statuses] of topics) {
      for (const status of ['firing', 'resolved'] as const) {
        const lines = statuses[status];
        if (lines.length === 0) continue;
        const head = status === 'firing' ? ':alert: **FIRING**' : ':squared_ok: **Resolved**';
        messages.push({ topic, content: lines.length === 1 ? `${head} ${lines[0]}` : `${head}\n${lines.map((l) => `* ${l}`).join('\n')}` });
      }
    }
    return messages;
  },
};
