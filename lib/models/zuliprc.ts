/**
 * A `zuliprc` file as upstream's settings download it, for the terminal client, bots and the
 * Python API: the `[api]` section with the account's email, API key and organization URL, and a
 * final newline (some tools need one).
 */
export const zuliprc = (account: { email: string; apiKey: string; site: string }): string =>
  `[api]\nemail=${account.email}\nkey=${account.apiKey}\nsite=${account.site}\n`;
