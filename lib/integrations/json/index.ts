// The JSON integration (upstream's zerver/webhooks/json): posts the payload itself, indented, in
// a JSON code block, to the topic "JSON".
import { pythonJsonDumps } from '../common';
import type { Integration } from '../types';

export const json: Integration = {
  name: 'json',
  clientName: 'JSON',
  title: 'JSON formatter',
  body: 'json',
  receive: ({ payload }) => [{ topic: 'JSON', content: `\`\`\`json\n${pythonJsonDumps(payload.value, 2)}\n\`\`\`` }],
};
