/**
 * The arena's browser client (browser/): built with esbuild in memory and served on 127.0.0.1.
 *
 * `npx tsx examples/multiplayer/page.ts [--rtt 100] [--port 8090] [--bodies 400]` starts a server
 * (in this process, on a free port), a delay proxy in front of it at `--rtt` ms of round trip (0:
 * none), and the page, and prints the address to open: `http://127.0.0.1:8090/?endpoint=<proxy>`.
 * Open it in two windows to play against yourself. `--endpoint URL` serves the page for a server
 * (or proxy) already running instead.
 *
 * `startPage` is the same for the tests (the page server alone).
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { startDelayProxy } from './delayProxy.js';
import { startServer } from './server.js';

const PAGE = join(import.meta.dirname, 'browser');

export interface RunningPage {
  port: number;
  /** The page's address (add `?endpoint=…`). */
  url: string;
  stop(): Promise<void>;
}

/** Builds browser/main.ts (one IIFE bundle with three.js, the Colyseus SDK and the module) and serves it with index.html. */
export async function startPage(port = 0): Promise<RunningPage> {
  const result = await build({
    entryPoints: [join(PAGE, 'main.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    outdir: 'out',
    write: false,
    logLevel: 'warning',
  });
  const files = new Map<string, { type: string; body: Uint8Array }>([['/index.html', { type: 'text/html; charset=utf-8', body: readFileSync(join(PAGE, 'index.html')) }]]);
  for (const f of result.outputFiles) files.set(`/${f.path.split(/[\\/]/).pop()}`, { type: 'text/javascript; charset=utf-8', body: f.contents });
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const f = files.get(path === '/' ? '/index.html' : path);
    if (f === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    res.writeHead(200, { 'content-type': f.type, 'content-length': f.body.byteLength, 'cache-control': 'no-store' }).end(f.body);
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok());
  });
  const actual = (server.address() as { port: number }).port;
  return {
    port: actual,
    url: `http://127.0.0.1:${actual}/`,
    stop: () => {
      server.closeAllConnections();
      return new Promise((ok) => server.close(() => ok()));
    },
  };
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  let endpoint = arg('endpoint', '');
  if (endpoint === '') {
    const server = await startServer({ port: 0, log: (line) => console.log(line) });
    endpoint = `http://127.0.0.1:${server.port}`;
    const rtt = Number(arg('rtt', '100'));
    if (rtt > 0) endpoint = (await startDelayProxy({ target: endpoint, rttMs: rtt })).endpoint;
  }
  const page = await startPage(Number(arg('port', '8090')));
  console.log(`open ${page.url}?endpoint=${encodeURIComponent(endpoint)}&bodies=${arg('bodies', '400')}`);
}
