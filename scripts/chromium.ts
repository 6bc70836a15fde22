// Debian's Chromium, as the browser tests and `npm run bench web` start it: headless, quiet, and
// reaching nothing but the service under test (playwright-core drives it and never downloads a
// browser of its own; .ci/run installs the `chromium` package).
export const CHROMIUM = '/usr/bin/chromium';

/** The flags of a quiet, headless run that reaches nothing but the service under test. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
