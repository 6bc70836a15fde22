// PATCH /users/me/subscriptions/muted_topics (deprecated): mute or unmute a topic, by channel id or name.
import { checkUpdateMutedTopic } from '../../lib/actions/channels/user-topics';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { int, literal, string } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params }) => {
  // Upstream's order of declaration, so that the first bad parameter is the one it names.
  const p = params({
    op: rawString(literal('add', 'remove')),
    topic: rawString(string({ maxLength: realm.limits.max_topic_length })),
    stream: rawString().optional(),
    stream_id: json(int).optional(),
  });
  await checkUpdateMutedTopic(user, { streamId: p.stream_id, stream: p.stream }, p.topic, p.op);
  return {};
});
