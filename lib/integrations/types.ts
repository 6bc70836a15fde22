// What an incoming-webhook integration is: a pure function from the request to the messages to
// post. The webhook action (lib/actions/webhooks.ts) authenticates, parses the body, applies the
// shared query parameters (stream, topic, only_events, exclude_events) and posts.
import type { Wild } from './payload';

export type WebhookRequest = {
  /** The JSON body (an integration with `body: 'json'`), else the form field `payload` decoded (slack_incoming), read safely. */
  payload: Wild;
  /** The request headers, names lower-cased. */
  headers: Record<string, string | undefined>;
  /** A parameter of the query string or the form body (upstream's REQ), as sent. */
  param: (name: string) => string | undefined;
  /** The body as sent. */
  rawBody: string;
  /** The media type of the body, lower-cased, without parameters. */
  contentType: string;
  /** The organization's people, for the integrations that name them (upstream's user-name mapping). */
  people: PeopleLookup;
};

/** Reads of the organization's users an integration may make: each one indexed read. */
export type PeopleLookup = {
  /** The full name of the account with this email, if any (upstream's get_user_by_delivery_email). */
  fullNameByEmail: (email: string) => Promise<string | undefined>;
  /** The full name of an active account of this full name, ignoring case, if any. */
  fullNameByName: (name: string) => Promise<string | undefined>;
};

/** One message to post: its topic and Markdown; `eventType` is what only_events and exclude_events match. */
export type WebhookMessage = { topic: string; content: string; eventType?: string };

export type Integration = {
  /** The URL name: /api/v1/external/<name>. */
  name: string;
  /** Upstream's webhook_client_name: the client is `Zulip<displayName>Webhook`, errors say "the <displayName> webhook". */
  clientName: string;
  /** What the README's list calls it. */
  title: string;
  /** 'json': the body must be JSON (else 400 "Malformed JSON" and a notice to the bot's owner); 'custom': the integration reads the body itself. */
  body: 'json' | 'custom';
  /** The messages the request posts (none: the event is ignored, as upstream's tests that expect nothing). */
  receive: (req: WebhookRequest) => WebhookMessage[] | Promise<WebhookMessage[]>;
  /** Upstream's unquote_url_parameters: `stream` and `topic` are percent-decoded once more (Jira double-encodes them). */
  unquoteUrlParameters?: boolean;
};
