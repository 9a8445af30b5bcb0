/**
 * Child process of allocation.test.ts (run with node --expose-gc and a large young generation, via
 * tsx): measures JavaScript heap allocation across steady-state ticks of an arena.
 *
 * Method: warm up (JIT settles, buffers reach their steady size), force two full GCs, then run a
 * window of ticks and read `process.memoryUsage()` before and after. With a 128 MB semi-space no GC
 * runs inside a window (checked with a PerformanceObserver on 'gc' entries), so heapUsed grows by
 * exactly the bytes allocated on the JS heap (plus any JIT code), and arrayBuffers by the typed-array
 * backing stores allocated. A zero-tick window measures the fixed cost of the measurement itself
 * (reported, not subtracted: about 1–2 KB per window, i.e. < 10 B per tick over 200 ticks). The
 * figure is the smallest of several windows (JIT noise only adds).
 * Prints one JSON line.
 */
import { addComponent } from 'bitecs';
import { ResponseMode, runBroadphase, runIntegrate, runNarrowphase, setVelocity } from '../../src/index.js';
import { buildArena } from '../../src/scenes/buildArena.js';
import { buildGas } from '../../src/scenes/gas.js';
import { internalsOf } from '../../src/physics/internal.js';
import { bestWindow, createHeapWindow } from '../support/heapWindow.js';

const config = JSON.parse(process.argv[2] ?? '{}') as {
  spheres?: number; contactComponent?: boolean; sphereSphere?: boolean; movingBoxes?: boolean; response?: boolean; ticks?: number; warmup?: number; windows?: number;
  /** The bouncing gas (src/scenes/gas.ts, every sphere dynamic at 20 radii per tick: the response's path grid) instead of the arena; it has no Contact component (say `contactComponent: false`). */
  gas?: boolean;
  /** The sphere queries read the static cell table ahead whatever its size (findPairs.ts `touchTable`, `BroadphaseState.touchBytes` 0). */
  touchAhead?: boolean;
  /** Bytes per call (the test's bound) above which a phase is re-warmed and measured again (bestWindow). */
  settleBelow?: number;
};
const heap = createHeapWindow();

const arena = config.gas
  ? { ...buildGas({ spheres: config.spheres ?? 250, dynamic: true }), boxIds: [] as number[], sphereIds: [] as number[] }
  : buildArena({
    spheres: config.spheres ?? 1000,
    seed: 3,
    sphereSphere: config.sphereSphere ?? false,
    physics: { contactComponent: config.contactComponent ?? true },
  });
if (config.touchAhead) internalsOf(arena.physics).broadphase.touchBytes = 0;
// Moving boxes take the per-tick path of dynamic bodies (validation, swept bounds, dynamic grid).
if (config.movingBoxes) for (const b of arena.boxIds) setVelocity(arena.physics, b, [0.5, -0.25, 0.125]);
// Every sphere dynamic (BOUNCE, restitution 1): the collision response runs inside the narrowphase.
if (config.response) {
  const R = arena.physics.components.Response;
  for (const s of arena.sphereIds) {
    addComponent(arena.physics.world, s, R);
    R.mode[s] = ResponseMode.BOUNCE;
    R.restitution[s] = 1;
  }
}
const TICKS = config.ticks ?? 200;
const WINDOWS = config.windows ?? 4;
for (let i = 0; i < (config.warmup ?? 2000); i++) arena.tick();

const p = arena.physics;
/** Control: a known allocation per call (a 16-slot array kept alive), to show the method sees it. */
let sink: unknown[] = [];
/** Pairs that began or ended during the 'tick' windows (each may add or remove Contact components). */
let pairEvents = 0;
const bodies = {
  control: () => {
    sink = new Array(16);
  },
  tick: () => {
    arena.tick();
    pairEvents += p.began.count + p.ended.count;
  },
  broadphase: () => runBroadphase(p),
  narrowphase: () => runNarrowphase(p),
  integrate: () => runIntegrate(p),
  nothing: () => undefined,
};

const result: Record<string, unknown> = { config, ticks: TICKS };
const base = [];
for (let w = 0; w < WINDOWS; w++) base.push((await heap.measure(bodies.nothing, 0)).bytes);
const overhead = Math.min(...base);
result.overheadBytes = overhead;
for (const name of ['control', 'tick', 'broadphase', 'narrowphase', 'integrate'] as const) {
  const fn = bodies[name];
  for (let i = 0; i < 50; i++) fn(); // warm this call path too
  // Measured once: the control (it allocates on purpose) and, with the Contact component, whole ticks
  // (bitecs allocates there). The others re-warm while above the bound.
  const once = name === 'control' || (name === 'tick' && config.contactComponent !== false) || config.settleBelow === undefined;
  result[name] = await bestWindow(heap, fn, TICKS, WINDOWS, once ? undefined : { below: config.settleBelow ?? 0, warm: 400, rounds: 3 });
}
result.contactsPerTick = p.contacts.count;
result.pairEventsPerTick = pairEvents / (TICKS * WINDOWS);
result.sinkLength = sink.length;
heap.disconnect();
process.stdout.write(`${JSON.stringify(result)}\n`);
