/**
 * Starting and stopping the processes of a scaled-out arena: a local `redis-server` and server
 * processes (server.ts) that share it. Used by launch.ts, the load script and the tests. Everything
 * listens on 127.0.0.1; every start waits for a readiness line with a time limit; `stop` sends
 * SIGTERM, then SIGKILL after a grace period; children still running when this process exits are
 * killed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

export interface Started {
  /** Output lines so far (stdout and stderr). */
  readonly lines: string[];
  readonly pid: number;
  stop(): Promise<void>;
}

export interface RedisProcess extends Started {
  url: string;
  port: number;
}

export interface ServerProcess extends Started {
  port: number;
  processId: string;
  endpoint: string;
}

/** A free TCP port on `host` (bound and released; there is a small window for a race). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, host, () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Resolves when TCP `port` on `host` can be listened on (bound and released at once); rejects with
 * an Error saying which port is taken otherwise. Servers check their fixed port with it before they
 * start: Colyseus only logs a listen error (`EADDRINUSE`) and the process would wait forever.
 */
export function checkPortFree(port: number, host = '127.0.0.1'): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', (e: NodeJS.ErrnoException) => {
      reject(e.code === 'EADDRINUSE' ? new Error(`port ${port} on ${host} is in use (by another server.ts or launch.ts still running?): stop that process first, or choose another port`) : e);
    });
    s.listen(port, host, () => s.close(() => resolve()));
  });
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
}

/** Spawns `command`, collects its lines, resolves with the first line matching `ready`. */
function startChild(command: string, args: string[], ready: RegExp, timeoutMs: number, onLine?: (line: string) => void, env?: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; match: RegExpMatchArray; started: Started }> {
  installExitHook();
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: env ?? process.env });
  live.add(child);
  const lines: string[] = [];
  const exited = new Promise<void>((done) => child.once('exit', () => {
    live.delete(child);
    done();
  }));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const started: Started = { lines, pid: child.pid ?? -1, stop };
  return new Promise((resolveStart, reject) => {
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      void stop();
      reject(new Error(`${command} ${args.join(' ')}: ${why}\n${lines.slice(-20).join('\n')}`));
    };
    const timer = setTimeout(() => fail(`not ready after ${timeoutMs} ms`), timeoutMs);
    let partial = '';
    const onData = (chunk: Buffer) => {
      const text = partial + chunk.toString('utf8');
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        onLine?.(line);
        const match = settled ? null : line.match(ready);
        if (match !== null) {
          settled = true;
          clearTimeout(timer);
          resolveStart({ child, match, started });
        }
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (e) => fail(e.message));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      fail(`exited (${code ?? signal}) before it was ready`);
    });
  });
}

/** Whether `redis-server` is on the PATH. */
export function hasRedis(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Starts a throwaway `redis-server` on 127.0.0.1 at a free port (no persistence). */
export async function startRedis(onLine?: (line: string) => void): Promise<RedisProcess> {
  const port = await freePort();
  const { started } = await startChild(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
    /Ready to accept connections/,
    15_000,
    onLine,
  );
  return { ...started, url: `redis://127.0.0.1:${port}`, port };
}

export interface ServerProcessOptions {
  redis?: string;
  /** 0 (default) = a free port. */
  port?: number;
  onLine?: (line: string) => void;
  /** Extra arguments for server.ts. */
  args?: string[];
}

/**
 * Starts server.ts as its own Node process (through tsx) and waits until it accepts clients.
 * Colyseus gives a room creation in another process 2 s (`COLYSEUS_PRESENCE_SHORT_TIMEOUT`) before
 * it creates the room locally and leaves that process out of placement until it reports again; on
 * a loaded machine a first creation (module loading, JIT) can take longer, so the processes started
 * here get 10 s unless the variable is set.
 */
export async function startServerProcess(o: ServerProcessOptions = {}): Promise<ServerProcess> {
  const args = ['--import', 'tsx', resolve(ROOT, 'examples/multiplayer/server.ts'), '--port', String(o.port ?? 0), ...(o.args ?? [])];
  if (o.redis !== undefined) args.push('--redis', o.redis);
  const env = { ...process.env, COLYSEUS_PRESENCE_SHORT_TIMEOUT: process.env.COLYSEUS_PRESENCE_SHORT_TIMEOUT ?? '10000' };
  const { match, started } = await startChild(process.execPath, args, /^listening 127\.0\.0\.1:(\d+) process (\S+)/, 60_000, o.onLine, env);
  const port = Number(match[1]);
  return { ...started, port, processId: match[2], endpoint: `http://127.0.0.1:${port}` };
}

export interface ProxyProcess extends Started {
  endpoint: string;
}

/** Starts delayProxy.ts as its own Node process in front of `target` (its timers undisturbed by the caller's work). */
export async function startProxyProcess(target: string, rttMs: number, jitterMs = 5): Promise<ProxyProcess> {
  const args = ['--import', 'tsx', resolve(ROOT, 'examples/multiplayer/delayProxy.ts'), '--target', target, '--port', '0', '--rtt', String(rttMs), '--jitter', String(jitterMs)];
  const { match, started } = await startChild(process.execPath, args, /^delay proxy (http:\/\/\S+)/, 60_000);
  return { ...started, endpoint: match[1] };
}
