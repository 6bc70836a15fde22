// The Serverless Framework (osls, run as `serverless`) as the deploy tests run it: on a machine
// with no AWS account, and a bundled handler run on plain Node (no tsx), as Lambda runs it.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { tableName } from '../../lib/store/client';
import { buildEvent } from './api';

export const run = promisify(execFile);
export const ROOT = resolve(__dirname, '../..');
export const SERVERLESS = require.resolve('serverless/bin/serverless.js', { paths: [ROOT] });
// The default stage: a run that names none.
export const STAGE = 'dev';
export const UPLOAD_URL_SECRET = 'f'.repeat(64);

/** The routes that use the uploads bucket, with their role (routes.json `bucket`), as both deploy checks expect them. */
export const BUCKET_ROUTES = [
  'deleteRealmExport:delete',
  'downloadRealmExport:read',
  'removeAttachment:delete',
  'serveRealmEmojiImage:read',
  'serveUploadedFile:read',
  'serveUploadedFileByToken:read',
  'serveUserAvatar:read',
  'uploadAvatar:write',
  'uploadFile:write',
  'uploadRealmEmoji:write',
  'uploadRealmIcon:write',
  'uploadRealmLogo:write',
];

/** The background jobs (functions/routes.js JOBS), in their order, as both deploy checks expect them. */
export const JOB_NAMES = [
  'messageFanout',
  'messageMove',
  'outgoingWebhook',
  'push',
  'realmExport',
  'realmImport',
  'scheduledDelivery',
  'sendDigests',
];

export type Resource = { Type: string; Condition?: string; Properties: Record<string, any> };

/** The environment of a machine with no AWS account: no credentials, no profile. */
export const noAwsEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('AWS_') && k !== 'DYNAMODB_ENDPOINT') env[k] = v;
  return { ...env, HOME: mkdtempSync(join(tmpdir(), 'no-aws-home-')), SLS_TELEMETRY_DISABLED: '1', AWS_REGION: 'us-east-1' };
};

export const capitalized = (name: string) => `${name[0].toUpperCase()}${name.slice(1)}`;

/** `npx serverless <args>` without AWS credentials: its output, or its error output when it fails. */
export const serverless = async (args: string[]): Promise<{ ok: boolean; output: string }> => {
  try {
    const { stdout } = await run(process.execPath, [SERVERLESS, ...args], { cwd: ROOT, env: noAwsEnv(), timeout: 110000 });
    return { ok: true, output: stdout };
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string };
    return { ok: false, output: `${stderr}${stdout}` };
  }
};

/** Runs `script` on plain Node in `dir` (a bundle), against this test file's tables; its standard output. */
export const runBundled = async (dir: string, script: string, env: Record<string, string> = {}): Promise<string> => {
  const { stdout } = await run(process.execPath, ['-e', script], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      ...(process.env.DYNAMODB_LOCAL_DATABASE ? { DYNAMODB_LOCAL_DATABASE: process.env.DYNAMODB_LOCAL_DATABASE } : {}),
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      TABLE_MAIN: tableName('main'),
      TABLE_EVENTS: tableName('events'),
      REQUEST_LOG: 'off',
      ...env,
    },
  });
  return stdout;
};

/** The bundled POST /dev_fetch_api_key's response to iago's development login, with the given development mode. */
export const bundledDevLogin = async (dir: string, developmentMode: string): Promise<{ statusCode: number; body: any }> => {
  const event = await buildEvent({ method: 'POST', path: '/dev_fetch_api_key', params: { username: 'iago@zulip.com' } });
  const script = `require('./functions/dev/fetch-api-key.js').handler(${JSON.stringify(event)}, { awsRequestId: 'r1' }).then((r) => process.stdout.write(JSON.stringify(r)))`;
  const response = JSON.parse(await runBundled(dir, script, { DEVELOPMENT_MODE: developmentMode }));
  return { statusCode: response.statusCode, body: JSON.parse(response.body) };
};
