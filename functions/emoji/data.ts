// GET /server_emoji_data.json: the emoji data file the mobile app downloads from register's
// server_emoji_data_url (upstream's `code_to_names` format), without authentication. It is the
// emoji module's own table, bundled with the function when it is built.
import { emojiApiData } from '../../lib/emoji';
import { publicApiHandler, RawResponse } from '../../lib/http/api-handler';

let body: string | undefined;

export const handler = publicApiHandler(async () => {
  body ??= JSON.stringify(emojiApiData());
  return new RawResponse({
    statusCode: 200,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=86400' },
    body,
  });
});
