/**
 * Runs an allocation child process (a .ts file measuring heap windows, see heapWindow.ts) the way
 * the allocation tests do: node with --expose-gc and a 128 MB young generation (so no GC runs inside
 * a window), TypeScript through tsx, from the repository root. Resolves to the child's last stdout
 * line parsed as JSON.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

export interface AllocationChildOptions {
  /** Extra command-line arguments after the child's path. */
  args?: string[];
  /** Milliseconds before the child is killed. */
  timeout: number;
  /** Extra node flags before the child (e.g. `--no-concurrent-recompilation`). */
  nodeFlags?: string[];
}

/** Runs `child` (an absolute path) and parses the last line it prints. */
export async function runAllocationChild<T>(child: string, { args = [], timeout, nodeFlags = [] }: AllocationChildOptions): Promise<T> {
  const { stdout } = await run(
    process.execPath,
    ['--expose-gc', ...nodeFlags, '--min-semi-space-size=128', '--max-semi-space-size=128', '--import', 'tsx', child, ...args],
    { cwd: root, timeout, maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as T;
}
