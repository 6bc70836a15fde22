// The functions' settings that a stage must choose itself, checked when serverless resolves its
// configuration (package, deploy, offline), so that no stage runs with a setting it did not ask
// for: serverless.yml's `${file(./settings/index.js):developmentMode}` and `:uploadUrlSecret`.
// lib/config.ts reads them at run time. Plain CommonJS, like tables/index.js.

/** The shortest secret accepted: `openssl rand -hex 32` prints 64 characters. */
const MIN_SECRET_LENGTH = 32;

/** An error that serverless prints as its message alone (it prints a rejection's stack). */
const refusal = (message) => Object.assign(new Error(message), { stack: message });

/**
 * DEVELOPMENT_MODE: the stage's `developmentMode` parameter, `on` or `off` (serverless.yml's
 * default: off). Only `on` enables POST /dev_fetch_api_key, so a stage's name never does, and a
 * misspelt value fails rather than quietly meaning one or the other.
 */
const developmentMode = async ({ resolveVariable }) => {
  const value = String(await resolveVariable('param:developmentMode'));
  if (value !== 'on' && value !== 'off') throw refusal(`The developmentMode parameter must be on or off, got "${value}"`);
  return value;
};

/**
 * UPLOAD_URL_SECRET: the stage's `uploadUrlSecret` parameter, which every stage must set. It signs
 * the temporary file URLs; a missing one would leave lib/config.ts a known fallback (development
 * mode) or none at all, and a known one lets anyone forge a URL to any uploaded file.
 */
const uploadUrlSecret = async ({ resolveVariable }) => {
  const [secret, stage] = await Promise.all([resolveVariable("param:uploadUrlSecret, ''"), resolveVariable('sls:stage')]);
  if (String(secret).length < MIN_SECRET_LENGTH) {
    throw refusal(
      `The stage "${stage}" needs an uploadUrlSecret of at least ${MIN_SECRET_LENGTH} characters, to sign its file URLs: ` +
        'pass --param "uploadUrlSecret=$(openssl rand -hex 32)" or set it in serverless.yml params (e.g. from SSM). docs/operations.md, "Deploying to AWS".',
    );
  }
  return String(secret);
};

module.exports = { developmentMode, uploadUrlSecret };
