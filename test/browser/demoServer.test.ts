/**
 * `npm run demo` stops with its server (issue 26: after SIGTERM to npm, the node server kept running,
 * orphaned, on its port). npm runs the script through `sh -c`; npm forwards SIGTERM to that shell
 * only, and the shell dies without passing it on. No browser needed.
 *
 * Each case starts `npm run demo -- --port 0` in a process group of its own, waits for the address,
 * sends the signal, and then requires that no process of the group is left (npm, the shell, the
 * server, esbuild's service) and that the port refuses connections, within STOP_MS.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
/** Time the group has to be gone after the signal, ms (the server polls its parent every 250 ms). */
const STOP_MS = 5000;

/** Whether any process of process group `pgid` is alive (zombies of the group's leader are reaped by Node). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw e;
  }
}

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(1000) });
    return false;
  } catch {
    return true;
  }
}

/** Starts `npm run demo -- --port 0` as the leader of a new process group; resolves with its pid and address. */
function startDemo(): Promise<{ pgid: number; url: string; exited: Promise<void> }> {
  const child = spawn('npm', ['run', 'demo', '--', '--port', '0'], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((ok) => child.on('exit', () => ok()));
  let output = '';
  return new Promise((ok, fail) => {
    const onData = (d: Buffer) => {
      output += String(d);
      const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(output);
      if (m) ok({ pgid: child.pid!, url: m[0], exited });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => fail(new Error(`npm run demo exited with ${code} before serving:\n${output}`)));
  });
}

describe('npm run demo stops with its server', () => {
  for (const [what, signal, toGroup] of [
    ['Ctrl-C (SIGINT to the process group)', 'SIGINT', true],
    ['SIGTERM to npm alone', 'SIGTERM', false],
  ] as const) {
    it(`${what}: no process of the group is left and the port is closed`, async () => {
      const { pgid, url, exited } = await startDemo();
      try {
        expect(await refused(url)).toBe(false);
        process.kill(toGroup ? -pgid : pgid, signal);
        await exited;
        const deadline = Date.now() + STOP_MS;
        while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        expect(groupAlive(pgid), `a process of the group is still running ${STOP_MS} ms after ${signal}`).toBe(false);
        expect(await refused(url)).toBe(true);
      } finally {
        if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
      }
    }, 60_000);
  }
});
