// Upstream's sanitize_name for upload names: the 255-byte limit (truncate_file_name).
import { sanitizeFileName } from '../../../lib/models/attachment';

describe('sanitizeFileName', () => {
  it('keeps a name of 255 bytes as it is', () => {
    const name = `${'a'.repeat(251)}.txt`;
    expect(sanitizeFileName(name)).toBe(name);
  });

  it('cuts a longer name to 255 bytes, keeping its extension', () => {
    expect(sanitizeFileName(`${'a'.repeat(3000)}.txt`)).toBe(`${'a'.repeat(251)}.txt`);
  });

  it('never cuts a character in half: 2-byte letters stop at 254 bytes', () => {
    const name = sanitizeFileName(`${'é'.repeat(200)}.pdf`);
    expect(name).toBe(`${'é'.repeat(125)}.pdf`);
    expect(Buffer.byteLength(name)).toBe(254);
  });

  it('cuts the whole name when the extension alone fills the limit', () => {
    expect(sanitizeFileName(`a.${'b'.repeat(300)}`)).toBe(`a.${'b'.repeat(253)}`);
  });

  it('measures the name after NFKC normalization, which can make it longer', () => {
    // U+FDFA (one character, 3 bytes) normalizes to 18 characters (33 bytes).
    expect(Buffer.byteLength(sanitizeFileName('\uFDFA'.repeat(20)))).toBeLessThanOrEqual(255);
  });
});
