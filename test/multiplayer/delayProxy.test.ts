/**
 * The delay proxy (examples/multiplayer/delayProxy.ts) in front of a WebSocket echo server on
 * 127.0.0.1: each message's round trip is the given one within twice the jitter (plus the event
 * loop), messages are never reordered even when the jitter exceeds the gap between them, binary and
 * text frames keep their kind, and an HTTP request is forwarded.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { startDelayProxy, type DelayProxy } from '../../examples/multiplayer/delayProxy.js';

let http: Server | undefined;
let target = '';
const proxies: DelayProxy[] = [];

beforeAll(async () => {
  http = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`echo ${req.method} ${req.url}`));
  const wss = new WebSocketServer({ server: http });
  wss.on('connection', (s) => s.on('message', (d, binary) => s.send(d, { binary })));
  await new Promise<void>((r) => http!.listen(0, '127.0.0.1', () => r()));
  target = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
});

afterAll(async () => {
  for (const p of proxies) await p.stop();
  http?.closeAllConnections();
  await new Promise((r) => http?.close(r));
});

async function echo(rttMs: number, jitterMs: number, count: number, gapMs: number): Promise<{ order: number[]; rtts: number[]; kinds: boolean[] }> {
  const proxy = await startDelayProxy({ target, rttMs, jitterMs, seed: 3 });
  proxies.push(proxy);
  const ws = new WebSocket(`ws://127.0.0.1:${proxy.port}/echo`);
  await new Promise((r, f) => {
    ws.once('open', r);
    ws.once('error', f);
  });
  const sent: number[] = [];
  const order: number[] = [], rtts: number[] = [], kinds: boolean[] = [];
  const done = new Promise<void>((r) => ws.on('message', (d: Buffer, binary) => {
    const i = binary ? d.readUInt32LE(0) : Number(String(d));
    order.push(i);
    rtts.push(performance.now() - sent[i]);
    kinds.push(binary === (i % 2 === 0));
    if (order.length === count) r();
  }));
  for (let i = 0; i < count; i++) {
    sent[i] = performance.now();
    if (i % 2 === 0) {
      const b = Buffer.alloc(4);
      b.writeUInt32LE(i);
      ws.send(b);
    } else ws.send(String(i));
    await new Promise((r) => setTimeout(r, gapMs));
  }
  await done;
  ws.close();
  return { order, rtts, kinds };
}

describe('delay proxy', () => {
  it('holds each message half the round trip each way, within the jitter, in order', async () => {
    const { order, rtts, kinds } = await echo(100, 5, 60, 5);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(kinds.every(Boolean)).toBe(true);
    expect(Math.min(...rtts)).toBeGreaterThanOrEqual(90 - 1);
    const sorted = [...rtts].sort((a, b) => a - b);
    expect(sorted[sorted.length >> 1]).toBeLessThan(100 + 60); // the median: the event loop of a loaded machine aside
  });

  it('never reorders, even with a jitter larger than the gap between messages', async () => {
    const { order, rtts } = await echo(40, 30, 80, 1);
    expect(order).toEqual(Array.from({ length: 80 }, (_, i) => i));
    expect(Math.min(...rtts)).toBeGreaterThanOrEqual(0);
  });

  it('forwards HTTP requests', async () => {
    const proxy = await startDelayProxy({ target, rttMs: 20 });
    proxies.push(proxy);
    const res = await fetch(`${proxy.endpoint}/matchmake/x?y=1`, { method: 'POST', body: 'z' });
    expect(await res.text()).toBe('echo POST /matchmake/x?y=1');
  });
});
