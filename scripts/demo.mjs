// `npm run demo`: builds the browser demo (examples/browser/) with esbuild, in memory, and serves it
// on 127.0.0.1; prints the address. Nothing is written to disk unless --outdir is given.
//
//   node scripts/demo.mjs [--port N] [--outdir DIR]
//
// --port N     port to listen on (default 8080; 0 picks a free one, printed)
// --outdir DIR write index.html, main.js and main.js.map to DIR (a static site) and exit
//
// The page is served with cross-origin isolation headers (COOP/COEP), which give it the browser's
// fine-grained performance.now() (5 µs instead of 100 µs) for the ms/tick figure.
//
// Stopping: Ctrl-C (SIGINT to the terminal's process group), SIGTERM or SIGHUP close the server and
// exit. `npm run demo` starts this script through `sh -c`, and SIGTERM sent to npm alone reaches only
// that shell, which dies without passing it on: the server then notices that its parent process is
// gone (it was re-parented: process.ppid changed) within PARENT_POLL_MS and exits too.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PAGE = join(ROOT, 'examples/browser');

const { values } = parseArgs({ options: { port: { type: 'string', default: '8080' }, outdir: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
if (values.help) {
  console.log('usage: npm run demo [-- --port N] [-- --outdir DIR]\n  builds examples/browser/ and serves it on http://127.0.0.1:N/ (default 8080; 0 = any free port)');
  process.exit(0);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`demo: --port must be an integer in 0..65535, got ${values.port}`);
  process.exit(2);
}

/** The page's files by URL path: the HTML as written, the bundle and its source map from esbuild. */
async function buildPage() {
  const result = await build({
    entryPoints: [join(PAGE, 'main.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: 'linked',
    outdir: 'out',
    write: false,
    logLevel: 'warning',
  });
  const files = new Map([['/index.html', { type: 'text/html; charset=utf-8', body: readFileSync(join(PAGE, 'index.html')) }]]);
  for (const f of result.outputFiles) {
    const name = `/${f.path.split(/[\\/]/).pop()}`;
    files.set(name, { type: name.endsWith('.map') ? 'application/json' : 'text/javascript; charset=utf-8', body: Buffer.from(f.contents) });
  }
  return files;
}

const files = await buildPage();

if (values.outdir) {
  mkdirSync(values.outdir, { recursive: true });
  for (const [name, f] of files) writeFileSync(join(values.outdir, name.slice(1)), f.body);
  console.log(`demo: wrote ${[...files.keys()].map((n) => n.slice(1)).join(', ')} to ${values.outdir}`);
  process.exit(0);
}

const server = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  const f = files.get(path === '/' ? '/index.html' : path);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405).end();
    return;
  }
  if (!f) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    return;
  }
  res.writeHead(200, {
    'content-type': f.type,
    'content-length': f.body.length,
    'cache-control': 'no-store',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-embedder-policy': 'require-corp',
  });
  res.end(req.method === 'HEAD' ? undefined : f.body);
});
server.on('error', (e) => {
  console.error(`demo: cannot listen on 127.0.0.1:${port}: ${e.message}${e.code === 'EADDRINUSE' ? ' (choose another with --port N)' : ''}`);
  process.exit(1);
});
server.listen(port, '127.0.0.1', () => {
  console.log(`demo: http://127.0.0.1:${server.address().port}/  (Ctrl+C to stop)`);
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => process.exit(0));

/** How often the server checks that the process that started it is still there, ms. */
const PARENT_POLL_MS = 250;
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) {
    console.error('demo: the process that started the server is gone; stopping');
    process.exit(0);
  }
}, PARENT_POLL_MS).unref();
