// POST /external/{integration_name} (and upstream's form with a trailing slash): an incoming
// webhook. One route for every integration: the path names it (lib/integrations), an unknown one
// is a 404 before anything else, as upstream has no URL for it.
import { receiveIncomingWebhook } from '../../lib/actions/webhooks';
import { PathNotFoundError } from '../../lib/errors';
import { RawResponse, publicApiHandler } from '../../lib/http/api-handler';
import { authenticateWebhook } from '../../lib/http/auth';
import { json, rawString } from '../../lib/http/params';
import { jsonSuccess } from '../../lib/http/response';
import { integrationNamed } from '../../lib/integrations';
import { list, str } from '../../lib/validation/validators';

export const handler = publicApiHandler(async ({ event, params, pathString }) => {
  const integration = integrationNamed(pathString('integration_name').replace(/\/$/, ''));
  if (!integration) throw new PathNotFoundError();
  const headers = event.headers ?? {};
  // Upstream's webhook_view authenticates before the view reads its parameters.
  const { api_key } = params({ api_key: rawString().optional() });
  const { user, realm } = await authenticateWebhook(api_key, headers.authorization, headers.host);
  const p = params({
    stream: rawString().optional(),
    topic: rawString().optional(),
    only_events: json(list(str)).optional(),
    exclude_events: json(list(str)).optional(),
  });
  await receiveIncomingWebhook(realm, user, integration, {
    path: event.rawPath,
    headers,
    rawBody: event.rawBody ?? '',
    contentType: String(headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase(),
    param: (name) => params({ [name]: rawString().optional() })[name],
    stream: p.stream,
    topic: p.topic,
    onlyEvents: p.only_events,
    excludeEvents: p.exclude_events,
  });
  // Upstream's webhooks answer a bare success: the third party reads nothing else.
  return new RawResponse(jsonSuccess());
});
