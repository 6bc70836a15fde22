// Grafana (upstream's zerver/webhooks/grafana): Grafana 8 and later send `alerts`, one message each
// in the topic "[<alertname>]"; Grafana 7 sends one alert, in the topic of its title.
import { BadRequestError } from '../../errors';
import { strip } from '../common';
import type { Wild } from '../payload';
import type { Integration, WebhookMessage } from '../types';

const oneOf = (value: Wild, allowed: string[]): string => {
  const text = value.str();
  if (!allowed.includes(text)) throw new BadRequestError(`Invalid ${value.path}`);
  return text;
};

/** Python's str() of a JSON value. */
const pyStr = (value: unknown): string => {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
};

const alertMessage = (alert: Wild): WebhookMessage & { eventType: string } => {
  const status = oneOf(alert.get('status'), ['firing', 'resolved']);
  let body = status === 'firing' ? ':alert: **FIRING**\n\n' : ':checkbox: **RESOLVED**\n\n';
  const labels = alert.get('labels');
  let topic: string;
  if (labels.get('alertname').truthy) {
    const alertname = labels.get('alertname').str();
    topic = `[${alertname}]`;
    body += `**${alertname}**\n\n`;
  } else topic = `[${alert.get('fingerprint').str()}]`;
  body += `This alert was fired at <time:${alert.get('startsAt').str()}>.`;
  const end = alert.get('endsAt').str();
  if (end !== '0001-01-01T00:00:00Z') body += `\n\nThis alert was resolved at <time:${end}>.`;
  if (labels.truthy)
    body += `\n\nLabels:\n${labels
      .keys()
      .map((k) => `- ${k}: ${labels.get(k).str()}\n`)
      .join('')}\n`;
  const values = alert.get('values');
  if (values.truthy)
    body += `Values:\n${values
      .keys()
      .map((k) => `- ${k}: ${pyStr(values.get(k).value)}\n`)
      .join('')}\n`;
  else if (alert.get('valueString').truthy) body += `Values:\n${alert.get('valueString').str()}\n\n`;
  const annotations = alert.get('annotations');
  if (annotations.truthy)
    body += `Annotations:\n${annotations
      .keys()
      .map((k) => `- ${k}: ${annotations.get(k).str()}\n`)
      .join('')}`;
  if (alert.get('generatorURL').truthy) body += `\n[Generator](${alert.get('generatorURL').str()})`;
  if (alert.get('silenceURL').truthy) body += `\n[Silence](${alert.get('silenceURL').str()})`;
  if (alert.get('imageURL').truthy) body += `\n[Image](${alert.get('imageURL').str()})`;
  return { topic, content: `${body}\n`, eventType: status };
};

const legacyMessage = (p: Wild): WebhookMessage => {
  let matches = '';
  if (p.get('evalMatches').exists) {
    for (const m of p.get('evalMatches').list()) {
      const value = m.get('value');
      if (value.exists) value.num();
      matches += `**${m.get('metric').str()}:** ${pyStr(value.value ?? null)}\n`;
    }
  }
  const message = p.has('message') ? `${p.get('message').str()}\n\n` : '';
  const state = oneOf(p.get('state'), ['no_data', 'paused', 'alerting', 'ok', 'pending', 'unknown']);
  const icon = state === 'alerting' ? ':alert:' : state === 'ok' ? ':squared_ok:' : ':info:';
  let body = `${icon} **${state.toUpperCase()}**\n\n[${p.get('ruleName').str()}](${p.get('ruleUrl').str()})\n\n${message}${matches}`;
  if (p.has('imageUrl')) body += `\n[Click to view visualization](${p.get('imageUrl').str()})`;
  return { topic: p.get('title').str(), content: strip(body), eventType: state };
};

export const grafana: Integration = {
  name: 'grafana',
  clientName: 'Grafana',
  title: 'Grafana',
  body: 'json',
  receive: ({ payload }) => (payload.has('alerts') ? payload.get('alerts').list().map(alertMessage) : [legacyMessage(payload)]),
};
