// POST /user_topics: set (or with 0, remove) the caller's visibility policy for a topic.
import { checkUpdateUserTopic } from '../../lib/actions/channels/user-topics';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { VISIBILITY_POLICY_VALUES } from '../../lib/models/user-topic';
import { int, intIn, string } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params }) => {
  const p = params({
    stream_id: json(int),
    topic: rawString(string({ maxLength: realm.limits.max_topic_length })),
    visibility_policy: json(intIn(VISIBILITY_POLICY_VALUES)),
  });
  await checkUpdateUserTopic(user, p.stream_id, p.topic, p.visibility_policy);
  return {};
});
