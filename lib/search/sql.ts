// The search database's SQL, the same on Aurora PostgreSQL and PGlite: the schema (one row per
// message with a generated, weighted tsvector in PostgreSQL's built-in `english` configuration),
// the stream consumer's idempotent writes and the statements a search runs. `{schema}` is the
// configured schema (lib/search/client.ts); `:name` are Data API parameters, lists as JSON text.
// Upstream: zerver/lib/narrow.py (_by_search_tsearch, ts_locs_array).

/** Run in order once per process (lib/search/client.ts ensureSchema); each is idempotent. */
export const schemaStatements: readonly string[] = [
  'CREATE SCHEMA IF NOT EXISTS {schema}',
  `CREATE TABLE IF NOT EXISTS {schema}.messages (
    realm_id integer NOT NULL,
    id bigint NOT NULL,
    version numeric NOT NULL,
    deleted boolean NOT NULL DEFAULT false,
    channel_id integer,
    dm_user_ids integer[] NOT NULL DEFAULT '{}',
    sender_id integer NOT NULL DEFAULT 0,
    topic text NOT NULL DEFAULT '',
    content text NOT NULL DEFAULT '',
    rendered text NOT NULL DEFAULT '',
    has_link boolean NOT NULL DEFAULT false,
    has_image boolean NOT NULL DEFAULT false,
    has_attachment boolean NOT NULL DEFAULT false,
    has_reaction boolean NOT NULL DEFAULT false,
    search_tsvector tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('english'::regconfig, topic), 'A') || setweight(to_tsvector('english'::regconfig, rendered), 'B')
    ) STORED,
    PRIMARY KEY (realm_id, id)
  )`,
  'CREATE INDEX IF NOT EXISTS messages_tsvector ON {schema}.messages USING gin (search_tsvector)',
  'CREATE INDEX IF NOT EXISTS messages_channel ON {schema}.messages (realm_id, channel_id, id)',
  'CREATE INDEX IF NOT EXISTS messages_dm ON {schema}.messages USING gin (dm_user_ids)',
];

/** The columns of a row as the writes pass them (JSON objects, one per message). */
export type SearchRow = {
  realm_id: number;
  id: number;
  /** The stream record's sequence number (decimal text): a write never replaces a newer version. */
  version: string;
  deleted: boolean;
  channel_id: number | null;
  dm_user_ids: number[];
  sender_id: number;
  topic: string;
  content: string;
  rendered: string;
  has_link: boolean;
  has_image: boolean;
  has_attachment: boolean;
  has_reaction: boolean;
};

/**
 * Writes a batch of rows (`:rows`, a JSON array with at most one row per message) in one
 * statement: a new message is inserted, a known one replaced only by a version at least as new,
 * so a retried or out-of-order record never leaves an older version. A deletion is a row with
 * `deleted` (kept, so that an older record arriving later cannot bring the message back).
 */
export const UPSERT_ROWS = `
INSERT INTO {schema}.messages AS m (realm_id, id, version, deleted, channel_id, dm_user_ids, sender_id, topic, content, rendered,
  has_link, has_image, has_attachment, has_reaction)
SELECT r.realm_id, r.id, r.version, r.deleted, r.channel_id, ARRAY(SELECT json_array_elements_text(r.dm_user_ids)::integer),
  r.sender_id, r.topic, r.content, r.rendered, r.has_link, r.has_image, r.has_attachment, r.has_reaction
FROM json_to_recordset(:rows::json) AS r(realm_id integer, id bigint, version numeric, deleted boolean, channel_id integer,
  dm_user_ids json, sender_id integer, topic text, content text, rendered text, has_link boolean, has_image boolean,
  has_attachment boolean, has_reaction boolean)
ON CONFLICT (realm_id, id) DO UPDATE SET version = EXCLUDED.version, deleted = EXCLUDED.deleted, channel_id = EXCLUDED.channel_id,
  dm_user_ids = EXCLUDED.dm_user_ids, sender_id = EXCLUDED.sender_id, topic = EXCLUDED.topic, content = EXCLUDED.content,
  rendered = EXCLUDED.rendered, has_link = EXCLUDED.has_link, has_image = EXCLUDED.has_image,
  has_attachment = EXCLUDED.has_attachment, has_reaction = EXCLUDED.has_reaction
WHERE m.version <= EXCLUDED.version`;

/** An organization's rows, before a reindex writes them again. */
export const DELETE_REALM_ROWS = 'DELETE FROM {schema}.messages WHERE realm_id = :realm';

/**
 * The search condition: every row of the organization whose tsvector matches upstream's
 * plainto_tsquery of the whole operand, and whose raw content or topic contains each quoted
 * phrase (`:phrase0`, …; ILIKE patterns), never a deleted one.
 */
export const searchCondition = (phrases: number): string =>
  [
    'realm_id = :realm',
    'NOT deleted',
    "search_tsvector @@ plainto_tsquery('english'::regconfig, :query)",
    ...Array.from({ length: phrases }, (_, i) => `(content ILIKE :phrase${i} OR topic ILIKE :phrase${i})`),
  ].join(' AND ');

/**
 * The matches of each text (`:texts`, a JSON array) as ts_headline marks them with HighlightAll,
 * between upstream's delimiters, which never occur in rendered messages or escaped topics.
 */
export const HEADLINES = `
SELECT x.i::integer AS i, ts_headline('english'::regconfig, x.t, plainto_tsquery('english'::regconfig, :query),
  'HighlightAll = TRUE, StartSel = <ts-match>, StopSel = </ts-match>') AS h
FROM json_array_elements_text(:texts::json) WITH ORDINALITY AS x(t, i)`;

export const TS_START = '<ts-match>';
export const TS_STOP = '</ts-match>';
