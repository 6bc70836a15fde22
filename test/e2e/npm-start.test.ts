// `npm start` (scripts/run-local.ts) as a developer runs it: it prints the base URL, a ready line
// and a curl command that works, and a Ctrl-C or a SIGTERM stops every process it started.
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
const startNpmStart = async (port: number): Promise<Started> => {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port) };
  delete env.DYNAMODB_ENDPOINT;
  delete env.TABLE_PREFIX;
  // npm start turns development mode on itself (the tests' setup does too): its curl must work without it.
  delete env.DEVELOPMENT_MODE;
  // Unset, the service's own address follows the port.
  delete env.EXTERNAL_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/run-local.ts'], {
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
  while (!/is ready/.test(text)) {
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

describe('npm start', () => {
  it('prints the base URL, a ready line and a working curl command, and Ctrl-C stops everything', async () => {
    const port = await freePort();
    const started = await startNpmStart(port);
    try {
      const base = `http://localhost:${port}/api/v1`;
      expect(started.output()).toContain(`Base URL: ${base}\n`);
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
      // A terminal's Ctrl-C signals the whole foreground process group.
      await expectStopsEverything(started, port, () => process.kill(-started.child.pid!, 'SIGINT'));
    } finally {
      if (started.child.exitCode === null) process.kill(-started.child.pid!, 'SIGKILL');
    }
  }, 200000);

  it('stops everything on a SIGTERM to its own process', async () => {
    const port = await freePort();
    const started = await startNpmStart(port);
    try {
      await expectStopsEverything(started, port, () => process.kill(started.child.pid!, 'SIGTERM'));
    } finally {
      if (started.child.exitCode === null) process.kill(-started.child.pid!, 'SIGKILL');
    }
  }, 200000);
});
