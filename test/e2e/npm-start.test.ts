// `npm start` (scripts/run-local.ts) as a developer runs it: a short banner (the address to open,
// the development login, the base URL, a curl command that works) instead of serverless-offline's
// listing of every route, which --verbose prints; a Ctrl-C or a SIGTERM stops every process it started.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from '../../scripts/local-dynamo';
import { processAlive as alive } from '../../scripts/local-service';

const ROOT = resolve(__dirname, '../..');

/** Every process below `root` (by parent pid), found with ps. */
const descendants = (root: number): number[] => {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=']).toString().trim().split('\n');
  const children = new Map<number, number[]>();
  for (const row of rows) {
    const [pid, ppid] = row.trim().split(/\s+/).map(Number);
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const out: number[] = [];
  const walk = (pid: number) => (children.get(pid) ?? []).forEach((c) => (out.push(c), walk(c)));
  walk(root);
  return out;
};

type Started = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

/** Runs `npm start`'s command (node --import tsx scripts/run-local.ts) in its own process group (as a terminal would) and waits for the ready line. */
const startNpmStart = async (port: number, args: string[] = []): Promise<Started> => {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port) };
  delete env.VERBOSE;
  delete env.npm_config_loglevel;
  delete env.DYNAMODB_ENDPOINT;
  delete env.TABLE_PREFIX;
  // npm start turns development mode on itself (the tests' setup does too): its curl must work without it.
  delete env.DEVELOPMENT_MODE;
  // Unset, the service's own address follows the port.
  delete env.EXTERNAL_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/run-local.ts', ...args], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (c) => (text += c));
  child.stderr!.on('data', (c) => (text += c));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const deadline = Date.now() + 150000;
  while (!/is ready.*\n.*\n.*\n/.test(text)) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${text}`);
    if (Date.now() > deadline) throw new Error(`npm start was not ready in time:\n${text}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { child, output: () => text, exited };
};

/** Sends the signal and checks that npm start exits cleanly and leaves no process behind. */
const expectStopsEverything = async ({ child, output, exited }: Started, port: number, signal: () => void): Promise<void> => {
  const started = descendants(child.pid!);
  const commands = execFileSync('ps', ['-o', 'args=', '-p', started.join(',')]).toString();
  expect(commands).toContain('DynamoDBLocal.jar');
  expect(commands).toContain('offline start');
  signal();
  expect(await exited).toBe(0);
  expect(output()).toContain('Stopped.');
  // Give the kernel a moment to reap what the exit signalled.
  for (let i = 0; i < 20 && started.some(alive); i += 1) await new Promise((r) => setTimeout(r, 250));
  expect(started.filter(alive)).toEqual([]);
  await expect(fetch(`http://localhost:${port}/api/v1/`)).rejects.toThrow();
};

/** The output up to and including the ready line. */
const untilReady = (output: string): string[] => {
  const lines = output.split('\n');
  return lines.slice(0, lines.findIndex((l) => /is ready/.test(l)) + 1);
};

describe('npm start', () => {
  it('prints a short banner: the address to open, the development login, the base URL and a working curl command; Ctrl-C stops everything', async () => {
    const port = await freePort();
    const started = await startNpmStart(port);
    try {
      const base = `http://localhost:${port}/api/v1`;
      const origin = `http://localhost:${port}`;
      // Not serverless-offline's ~900 lines of routes and functions.
      expect(untilReady(started.output()).length).toBeLessThan(40);
      expect(started.output()).not.toContain('routeFallback');
      expect(started.output()).toContain(`Base URL: ${base}\n`);
      const lastLines = started.output().trimEnd().split('\n').slice(-3);
      expect(lastLines[0]).toMatch(/^The chat service is ready \(DynamoDB at http:\/\/127\.0\.0\.1:\d+\)\. Press Ctrl-C to stop\.$/);
      expect(lastLines.slice(1).join('\n')).toBe(
        `Open ${origin}/ in a browser and sign in as anyone of the development organization, with a click:\n` +
          `  ${origin}/devlogin/ (iago@zulip.com is an administrator, hamlet@zulip.com a member).`,
      );
      // The address leads to the login page, which links to the development login.
      const home = await fetch(`${origin}/`, { redirect: 'manual' });
      expect([home.status, home.headers.get('location')]).toEqual([302, '/login/']);
      expect(await (await fetch(`${origin}/login/`)).text()).toContain('<a href="/devlogin/">');
      const devLogin = await fetch(`${origin}/devlogin/`);
      expect(devLogin.status).toBe(200);
      expect(await devLogin.text()).toContain('value="iago@zulip.com"');
      // Requests are not logged without --verbose.
      expect(started.output()).not.toContain('(λ: webLoginPage)');
      expect(started.output()).not.toContain('(λ: webDevLoginPage)');
      const curl = started.output().match(/curl .*dev_fetch_api_key.*/)?.[0];
      expect(curl).toBe(`curl -sS -X POST ${base}/dev_fetch_api_key --data-urlencode username=iago@zulip.com`);
      const response = await fetch(`${base}/dev_fetch_api_key`, {
        method: 'POST',
        body: new URLSearchParams({ username: 'iago@zulip.com' }),
      });
      expect(await response.json()).toMatchObject({ result: 'success', email: 'iago@zulip.com', user_id: 11 });
      // The address it tells clients (the mobile app sends every request there) is its own port's.
      const settings = await (await fetch(`${base}/server_settings`)).json();
      expect(settings).toMatchObject({ result: 'success', realm_url: `http://localhost:${port}`, realm_uri: `http://localhost:${port}` });
      // The desktop app checks the server with HEAD, then loads realm_uri: the web app npm start built.
      expect((await fetch(`${base}/server_settings`, { method: 'HEAD' })).status).toBe(200);
      const form = await fetch(`${origin}/devlogin/`);
      const csrf = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(await form.text())![1];
      const login = await fetch(`${origin}/accounts/login/local/`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie: form.headers
            .getSetCookie()
            .map((c) => c.split(';')[0])
            .join('; '),
        },
        body: new URLSearchParams({ csrfmiddlewaretoken: csrf, direct_email: 'iago@zulip.com' }),
      });
      expect([login.status, login.headers.get('location')]).toEqual([302, '/']);
      const session = login.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const app = await (await fetch(`${origin}/`, { headers: { cookie: session } })).text();
      const script = /<script type="module" src="(\/static\/app-[^"]+\.js)"><\/script>/.exec(app)?.[1];
      expect(script).toBeDefined();
      const served = await fetch(`${origin}${script}`);
      expect([served.status, served.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
      // A terminal's Ctrl-C signals the whole foreground process group.
      await expectStopsEverything(started, port, () => process.kill(-started.child.pid!, 'SIGINT'));
    } finally {
      if (started.child.exitCode === null) process.kill(-started.child.pid!, 'SIGKILL');
    }
  }, 200000);

  // A third start only to send SIGTERM would cost one more start (about 25 s on a loaded machine): the --verbose one ends that way.
  it("prints serverless-offline's whole output with --verbose, its line per request included; a SIGTERM to its own process stops everything", async () => {
    const port = await freePort();
    const started = await startNpmStart(port, ['--verbose']);
    try {
      expect(untilReady(started.output()).length).toBeGreaterThan(200);
      expect(started.output()).toContain('routeFallback');
      await fetch(`http://localhost:${port}/login/`);
      // serverless-offline's line per request (the tests' environment turns the service's own request log off).
      for (let i = 0; i < 40 && !/GET \/login \(λ: webLoginPage\)/.test(started.output()); i += 1)
        await new Promise((r) => setTimeout(r, 250));
      expect(started.output()).toContain('GET /login (λ: webLoginPage)');
      await expectStopsEverything(started, port, () => process.kill(started.child.pid!, 'SIGTERM'));
    } finally {
      if (started.child.exitCode === null) process.kill(-started.child.pid!, 'SIGKILL');
    }
  }, 200000);
});
