/**
 * A delay proxy on loopback: a small HTTP and WebSocket relay that holds every message for a
 * configurable time, so that the arena's clients can be tried at 50, 100 or 200 ms of round trip on
 * one machine (the tests, the load script, the browser page).
 *
 * A Colyseus client talks HTTP to matchmake and then opens a WebSocket to the same address: the
 * proxy forwards both to the server (`target`). Each WebSocket message, in either direction, is
 * delivered `rttMs / 2` ± `jitterMs` (uniform, from a seeded PRNG) after it reached the proxy, but
 * never before the message ahead of it in the same direction (a WebSocket is one ordered stream:
 * jitter delays, it never reorders). An HTTP request is held `rttMs` once, before it is forwarded.
 * A close is relayed in order after the messages ahead of it.
 *
 * Run one by hand: `npx tsx examples/multiplayer/delayProxy.ts --target http://127.0.0.1:2567
 * [--port 2570] [--rtt 100] [--jitter 5]`, then point clients at `http://127.0.0.1:2570`.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { createRng } from '../../src/scenes/prng.js';

export interface DelayProxyOptions {
  /** The server's HTTP endpoint, e.g. `http://127.0.0.1:2567`. */
  target: string;
  /** Round trip added, ms: each direction holds a message half of it (default 100). */
  rttMs?: number;
  /** Each message's one-way hold varies by up to ± this, ms (default 5; clamped at 0). */
  jitterMs?: number;
  /** Seed of the jitter (default 1). */
  seed?: number;
  /** Port to listen on (default 0: a free one). */
  port?: number;
  host?: string;
}

export interface DelayProxy {
  port: number;
  /** `http://host:port`: give it to clients as their endpoint. */
  endpoint: string;
  /** WebSocket messages and bytes relayed so far, each direction. */
  readonly stats: { up: number; down: number; upBytes: number; downBytes: number };
  stop(): Promise<void>;
}

interface Held {
  at: number;
  data: RawData | null;
  binary: boolean;
  code: number;
}

/** One direction of one socket pair: an ordered queue with a single timer. */
class Lane {
  private readonly queue: Held[] = [];
  private head = 0;
  private last = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly hold: () => number, private readonly deliver: (h: Held) => void) {}

  push(data: RawData | null, binary: boolean, code = 1000): void {
    const now = performance.now();
    const at = Math.max(this.last, now + this.hold());
    this.last = at;
    this.queue.push({ at, data, binary, code });
    if (this.timer === undefined) this.arm(now);
  }

  private arm(now: number): void {
    const next = this.queue[this.head];
    if (next === undefined) return;
    this.timer = setTimeout(this.fire, Math.max(0, next.at - now));
  }

  private fire = (): void => {
    this.timer = undefined;
    const now = performance.now();
    while (this.head < this.queue.length && this.queue[this.head].at <= now + 0.5) this.deliver(this.queue[this.head++]);
    if (this.head > 1024) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    this.arm(now);
  };

  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.queue.length = 0;
    this.head = 0;
  }
}

/** A close code a peer may send on (1000, or an application's 3000–4999); anything else becomes 1000. */
const sendableCode = (code: number) => (code === 1000 || (code >= 3000 && code <= 4999) ? code : 1000);

/** Starts a delay proxy in front of `target` and resolves once it listens. */
export async function startDelayProxy(o: DelayProxyOptions): Promise<DelayProxy> {
  const rtt = o.rttMs ?? 100;
  const jitter = o.jitterMs ?? 5;
  if (!(rtt >= 0) || !(jitter >= 0)) throw new Error(`delay proxy: rttMs and jitterMs must be >= 0, got ${rtt} and ${jitter}`);
  const host = o.host ?? '127.0.0.1';
  const target = new URL(o.target);
  const rng = createRng(o.seed ?? 1);
  const hold = () => Math.max(0, rtt / 2 + (jitter > 0 ? rng.range(-jitter, jitter) : 0));
  const stats = { up: 0, down: 0, upBytes: 0, downBytes: 0 };
  const sockets = new Set<WebSocket>();
  const lanes = new Set<Lane>();

  const server: Server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (d: Buffer) => body.push(d));
    req.on('end', () => {
      setTimeout(() => {
        const up = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        });
        up.on('error', (e) => {
          if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(`delay proxy: ${e.message}\n`);
        });
        up.end(Buffer.concat(body));
      }, rtt);
    });
  });

  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    wss.handleUpgrade(req, socket, head, (client) => {
      const upstream = new WebSocket(`ws://${target.host}${req.url ?? '/'}`);
      sockets.add(client);
      sockets.add(upstream);
      const pending: Held[] = [];
      const toServer = new Lane(hold, (h) => {
        if (h.data === null) {
          if (upstream.readyState === WebSocket.OPEN) upstream.close(sendableCode(h.code));
          return;
        }
        if (upstream.readyState === WebSocket.OPEN) upstream.send(h.data, { binary: h.binary });
        else if (upstream.readyState === WebSocket.CONNECTING) pending.push(h);
      });
      const toClient = new Lane(hold, (h) => {
        if (h.data === null) {
          if (client.readyState === WebSocket.OPEN) client.close(sendableCode(h.code));
          return;
        }
        if (client.readyState === WebSocket.OPEN) client.send(h.data, { binary: h.binary });
      });
      lanes.add(toServer);
      lanes.add(toClient);
      upstream.on('open', () => {
        for (const h of pending) upstream.send(h.data!, { binary: h.binary });
        pending.length = 0;
      });
      client.on('message', (data, binary) => {
        stats.up++;
        stats.upBytes += size(data);
        toServer.push(data, binary);
      });
      upstream.on('message', (data, binary) => {
        stats.down++;
        stats.downBytes += size(data);
        toClient.push(data, binary);
      });
      client.on('close', (code) => toServer.push(null, false, code));
      upstream.on('close', (code) => toClient.push(null, false, code));
      client.on('error', () => upstream.terminate());
      upstream.on('error', () => client.terminate());
    });
  });

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(o.port ?? 0, host, () => ok());
  });
  const port = (server.address() as { port: number }).port;
  return {
    port,
    endpoint: `http://${host}:${port}`,
    stats,
    async stop() {
      for (const l of lanes) l.clear();
      for (const s of sockets) s.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

function size(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.byteLength, 0);
  return data.byteLength;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const proxy = await startDelayProxy({
    target: arg('target', 'http://127.0.0.1:2567'),
    port: Number(arg('port', '2570')),
    rttMs: Number(arg('rtt', '100')),
    jitterMs: Number(arg('jitter', '5')),
  });
  console.log(`delay proxy ${proxy.endpoint} -> ${arg('target', 'http://127.0.0.1:2567')}, round trip +${arg('rtt', '100')} ms ± ${arg('jitter', '5')} ms per direction`);
  const stop = () => void proxy.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
