// The outgoing webhook request never reaches an internal network (loopback, private, link-local:
// the function's own runtime API, the account's internal services) unless the operator allows it,
// whether the URL names the address or a host that resolves to it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isInternalAddress, postToService, ServiceConnectionError, ServiceRequestError } from '../../../lib/store/outgoing-webhooks';

let server: Server;
let port: number;
let reached = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    reached += 1;
    req.resume();
    res.end('{"content": "pong"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  delete process.env.OUTGOING_WEBHOOK_PRIVATE_NETWORKS;
});

const post = (url: string) => postToService(url, { contentType: 'application/json', body: '{}' }, 'test');

describe('outgoing webhook addresses', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.0.9', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['::1', true],
    ['::', true],
    ['fe80::1', true],
    ['fd00::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:10.0.0.1', true],
    ['not an address', true],
    ['172.32.0.1', false],
    ['8.8.8.8', false],
    ['::ffff:8.8.8.8', false],
    ['2606:4700::1111', false],
  ])('%s is internal: %s', (address, internal) => {
    expect(isInternalAddress(address)).toBe(internal);
  });

  it.each(['127.0.0.1', 'localhost', '[::1]', '[::ffff:127.0.0.1]'])(
    'refuses http://%s before anything is sent, unless allowed',
    async (host) => {
      const before = reached;
      const error = await post(`http://${host}:${port}/hook`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceRequestError);
      expect(error).toMatchObject({ kind: 'ForbiddenAddress' });
      expect(reached).toBe(before);
    },
  );

  it('reaches the same service where the operator allows internal addresses', async () => {
    process.env.OUTGOING_WEBHOOK_PRIVATE_NETWORKS = 'allow';
    const answer = await post(`http://localhost:${port}/hook`);
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('{"content": "pong"}');
  });

  it('reports a refused connection as a connection failure, which is retried', async () => {
    process.env.OUTGOING_WEBHOOK_PRIVATE_NETWORKS = 'allow';
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const free = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(post(`http://127.0.0.1:${free}/`)).rejects.toBeInstanceOf(ServiceConnectionError);
  });
});
