import { handler as emojiData } from '../../../functions/emoji/data';
import { handler as register } from '../../../functions/events/register';
import { checkEmojiRequest, unicodeEmojiCode } from '../../../lib/emoji';
import { call, expectSuccess } from '../../helpers/api';

const fetchFile = () => call(emojiData, { method: 'GET', path: '/server_emoji_data.json' });

describe('GET /server_emoji_data.json', () => {
  it('serves the emoji data file without authentication, as JSON', async () => {
    const result = await fetchFile();
    expect(result.status).toBe(200);
    expect(result.headers['Content-Type']).toBe('application/json');
    expect(Object.keys(result.body)).toEqual(['code_to_names']);
  });

  it('names exactly the emoji the emoji module accepts, each name under its own code', async () => {
    const codeToNames = (await fetchFile()).body.code_to_names as Record<string, string[]>;
    const entries = Object.entries(codeToNames);
    expect(entries.length).toBeGreaterThan(1000);
    const seen = new Set<string>();
    for (const [code, names] of entries) {
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        expect(seen.has(name)).toBe(false);
        seen.add(name);
        expect(unicodeEmojiCode(name)).toBe(code);
        expect(() => checkEmojiRequest(name, code, 'unicode_emoji', [])).not.toThrow();
      }
    }
    expect(codeToNames['1f44d']).toEqual(['+1', 'thumbs_up', 'like']);
  });

  it("carries upstream's names, not the Unicode data's short names", async () => {
    const codeToNames = (await fetchFile()).body.code_to_names as Record<string, string[]>;
    expect(codeToNames['1f642']).toEqual(['smile']);
    expect(codeToNames['1f604']).toEqual(['big_smile']);
    expect(codeToNames['2764']).toEqual(['heart', 'love', 'love_you']);
    expect(codeToNames['1f419']).toEqual(['octopus']);
    expect(codeToNames['1f3fd']).toBeUndefined(); // a skin-tone modifier
    expect(Object.values(codeToNames).flat()).not.toContain('thumbsup');
  });

  it("is where register's server_emoji_data_url points", async () => {
    const body = expectSuccess(
      await call(register, { method: 'POST', path: '/register', as: 'iago@zulip.com', params: { fetch_event_types: ['realm'] } }),
    );
    expect(body.server_emoji_data_url).toBe('http://localhost:3000/api/v1/server_emoji_data.json');
  });
});
