import { createServer, request, Agent, type Server, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type IdleSweeper, sweepIdleSockets } from './idleSockets.js';

let server: Server | undefined;
let sweeper: IdleSweeper | undefined;
let agent: Agent | undefined;

afterEach(async () => {
  sweeper?.stop();
  agent?.destroy();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = sweeper = agent = undefined;
});

/** A keep-alive server with no keep-alive timer (as startServer runs it) and a sweeper driven by hand. */
async function start(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> {
  server = createServer({ keepAliveTimeout: 0 }, listener);
  sweeper = sweepIdleSockets(server, 3_600_000);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return (server.address() as AddressInfo).port;
}

function get(port: number): Promise<{ body: string; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', path: '/', agent }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ body, socket: req.socket as Socket }));
    });
    req.on('error', reject);
    req.end();
  });
}

const closed = (s: Socket) =>
  new Promise<void>((resolve) => (s.destroyed ? resolve() : s.once('close', () => resolve())));

describe('sweepIdleSockets', () => {
  it('keeps a connection alive across requests and closes it once it moved no byte for a whole sweep', async () => {
    const port = await start((_req, res) => res.end('ok'));
    const first = await get(port);
    const second = await get(port);
    expect([first.body, second.body]).toEqual(['ok', 'ok']);
    expect(second.socket).toBe(first.socket); // kept alive with keepAliveTimeout 0
    expect(sweeper?.sweep()).toBe(0); // first look: bytes recorded
    expect(sweeper?.sweep()).toBe(1); // nothing moved since: closed
    await closed(first.socket);
    expect(sweeper?.size).toBe(0);
  });

  it('leaves a connection that moved bytes since the last sweep', async () => {
    const port = await start((_req, res) => res.end('ok'));
    const { socket } = await get(port);
    sweeper?.sweep();
    await get(port);
    expect(sweeper?.sweep()).toBe(0);
    expect(socket.destroyed).toBe(false);
    expect(sweeper?.sweep()).toBe(1);
  });

  it('never cuts a request whose answer is still being worked on', async () => {
    let answer: (() => void) | undefined;
    const port = await start((_req, res) => {
      answer = () => res.end('late');
    });
    const pending = get(port);
    while (answer === undefined) await new Promise((r) => setTimeout(r, 5));
    expect(sweeper?.sweep()).toBe(0);
    expect(sweeper?.sweep()).toBe(0);
    expect(sweeper?.sweep()).toBe(0);
    answer();
    expect((await pending).body).toBe('late');
    sweeper?.sweep();
    expect(sweeper?.sweep()).toBe(1);
  });

  it('stops watching a socket upgraded to another protocol', async () => {
    const port = await start((_req, res) => res.end('ok'));
    let serverSide: Socket | undefined;
    server?.on('upgrade', (_req, socket: Socket) => {
      serverSide = socket;
      socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n');
    });
    const upgraded = await new Promise<Socket>((resolve, reject) => {
      const req = request({
        port,
        host: '127.0.0.1',
        headers: { connection: 'Upgrade', upgrade: 'test' },
      });
      req.on('upgrade', (_res, socket) => resolve(socket as Socket));
      req.on('error', reject);
      req.end();
    });
    expect(sweeper?.size).toBe(0);
    expect(sweeper?.sweep()).toBe(0);
    expect(sweeper?.sweep()).toBe(0);
    expect(upgraded.destroyed).toBe(false);
    expect(serverSide?.destroyed).toBe(false);
    upgraded.destroy();
    serverSide?.destroy();
  });
});
