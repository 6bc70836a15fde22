// A built web app of three small files, for the tests of the server's side of it (the page at /,
// /static/) without building the real one: points WEBAPP_DIST (lib/config.ts) at a fresh folder.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const FAKE_MANIFEST = { js: 'app-TEST1234.js', css: 'app-TEST1234.css', favicon: 'favicon-TEST1234.svg' };
export const FAKE_SCRIPT = `document.getElementById('app').textContent = 'the app ran';\n`.repeat(20);

/** Writes the fake build and points this test file's process at it; returns its folder. */
export const useFakeWebapp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-webapp-'));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(FAKE_MANIFEST));
  writeFileSync(join(dir, FAKE_MANIFEST.js), FAKE_SCRIPT);
  writeFileSync(join(dir, FAKE_MANIFEST.css), 'body { margin: 0 }\n');
  writeFileSync(join(dir, FAKE_MANIFEST.favicon), '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
  mkdirSync(join(dir, 'fonts'));
  writeFileSync(join(dir, 'fonts', 'KaTeX_Main-Regular-ABCD.woff2'), Buffer.from([0, 1, 2, 3]));
  process.env.WEBAPP_DIST = dir;
  return dir;
};
