/**
 * A port already taken (by a single-process server.ts left running, say) stops server.ts and
 * launch.ts at once with exit code 1 and a message naming the port; Colyseus alone only logs
 * `EADDRINUSE` and the launcher then waited 60 s for a readiness line that never came.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
let holder: Server;
let port = 0;

beforeAll(async () => {
  holder = createServer();
  await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done));
  port = (holder.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((done) => holder.close(() => done())));

/** Runs `script` with tsx; resolves with its exit code, output and wall time (killed after 40 s). */
function run(script: string, args: string[]): Promise<{ code: number | null; out: string; ms: number }> {
  return new Promise((done) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', resolve(ROOT, script), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      done({ code, out, ms: performance.now() - t0 });
    });
  });
}

describe('regressions (multiplayer ports)', () => {
  it('regression: launch.ts with a port in use exits at once with code 1 naming the port (it waited 60 s)', async () => {
    const r = await run('examples/multiplayer/launch.ts', ['--ports', `${port},0`]);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain(`launch: port ${port} on 127.0.0.1 is in use`);
    expect(r.out).toContain('--ports');
    expect(r.out).not.toContain('launch: redis'); // nothing started
    expect(r.ms).toBeLessThan(30_000);
  });

  it('regression: server.ts with its port in use exits with code 1 naming the port (it logged EADDRINUSE and kept waiting)', async () => {
    const r = await run('examples/multiplayer/server.ts', ['--port', String(port)]);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain(`server: port ${port} on 127.0.0.1 is in use`);
    expect(r.out).not.toContain('listening');
  });
});
