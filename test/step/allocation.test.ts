/**
 * Steady-state ticks allocate nothing: heap allocation across 200 ticks of the arena (1000 spheres,
 * 100 boxes) after 2,000 ticks of warm-up (under load, V8 finishes optimising later; before that, unoptimised code boxes doubles), measured in a child process (see allocation.child.ts for the
 * method: --expose-gc, a 128 MB semi-space so that no GC runs inside a window, heapUsed +
 * arrayBuffers deltas, GC events watched, best of 4 windows). Bound: < 64 bytes per tick on average.
 *
 * The one exception is bitecs itself: adding or removing a component allocates inside bitecs 0.4
 * (closures and rest-argument arrays in addComponent/removeComponent and their observer
 * notifications), and the Contact component is added when an entity's first contact begins and
 * removed when its last ends. So with the Contact component on, the physics code allocates nothing
 * (a narrowphase whose contacts all persist measures ~0) and a full arena tick allocates only bitecs's
 * few hundred bytes per structural change; with `contactComponent: false` a full tick allocates
 * nothing.
 *
 * The bouncing gas (src/scenes/gas.ts: every sphere dynamic at 20 radii a tick, so the response uses
 * its path grid, caps bodies and runs the end-of-tick projection) gets 2,000 ticks of warm-up: its
 * rare paths (the projection's sweeps, a few calls a tick) run unoptimised for longer and box their
 * doubles there (83 B/tick after 600 ticks, measured; its typed arrays stop growing after tick 1).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runAllocationChild } from '../support/allocationChild.js';
import { report } from '../support/report.js';

const child = fileURLToPath(new URL('./allocation.child.ts', import.meta.url));

interface Phase { bytesPerCall: number; gcsInBestWindow: number; windows: number[]; rounds?: number }
interface Result { control: Phase; tick: Phase; broadphase: Phase; narrowphase: Phase; integrate: Phase; overheadBytes: number; contactsPerTick: number; pairEventsPerTick: number }

const BOUND = 64; // bytes per tick, average over the window

/** Runs the child; a phase still at or above BOUND is re-warmed and measured again (test/support/heapWindow.ts: bestWindow). */
function measure(config: object): Promise<Result> {
  return runAllocationChild<Result>(child, { args: [JSON.stringify({ ...config, settleBelow: BOUND })], timeout: 300_000 });
}
/** The children run at once; on a loaded machine their warm-up alone can take minutes. */
const TIMEOUT = 300_000;

describe('allocation', () => {
  // Both children start at once (each is single-threaded).
  const withComponent = measure({ spheres: 1000 });
  const withoutComponent = measure({ spheres: 1000, contactComponent: false });
  const movingBoxes = measure({ spheres: 1000, contactComponent: false, sphereSphere: true, movingBoxes: true });
  // After the first child: at most three children at once (each has its own 120 s limit).
  const response = withoutComponent.catch(() => undefined).then(() => measure({ spheres: 1000, contactComponent: false, sphereSphere: true, response: true, warmup: 800, ticks: 150, windows: 5 }));
  response.catch(() => undefined);
  // The bouncing gas: the response's path grid (on when spheres reach beyond 4 radii a tick), its bucket table and pieces.
  const gas = response.catch(() => undefined).then(() => measure({ gas: true, spheres: 250, contactComponent: false, warmup: 2000, ticks: 100, windows: 6 }));
  gas.catch(() => undefined);
  // The reads ahead of the static cell table (on by themselves above 4 MB of table, forced here).
  const touchAhead = movingBoxes.catch(() => undefined).then(() => measure({ spheres: 1000, contactComponent: false, touchAhead: true }));
  touchAhead.catch(() => undefined);
  // Rejections are reported by the tests that await them, not as unhandled.
  withComponent.catch(() => undefined);
  withoutComponent.catch(() => undefined);
  movingBoxes.catch(() => undefined);

  const f = (p: Phase) => `${p.bytesPerCall.toFixed(1)} B/call (GCs in window: ${p.gcsInBestWindow}, measurement rounds: ${p.rounds ?? 1})`;

  it(`steady-state arena ticks with contactComponent: false allocate nothing: < ${BOUND} B/tick over 200 ticks`, async () => {
    const r = await withoutComponent;
    report(`[allocation] contactComponent: false: tick ${f(r.tick)}; broadphase ${f(r.broadphase)}; narrowphase ${f(r.narrowphase)}; integrate ${f(r.integrate)}; measurement overhead ${r.overheadBytes} B/window`);
    // The measurement is only valid when no GC ran inside the window (a GC would hide allocation).
    expect(r.tick.gcsInBestWindow, 'a GC ran inside every window: allocation exceeded the 128 MB young generation').toBe(0);
    expect(r.tick.bytesPerCall, `windows: ${JSON.stringify(r.tick)}`).toBeLessThan(BOUND);
  }, TIMEOUT);

  it(`the sphere queries reading the static cell table ahead (findPairs.ts touchTable) allocate nothing: < ${BOUND} B/tick`, async () => {
    const r = await touchAhead;
    report(`[allocation] reads ahead forced, contactComponent: false: tick ${f(r.tick)}; broadphase ${f(r.broadphase)}`);
    expect(r.tick.gcsInBestWindow).toBe(0);
    expect(r.broadphase.bytesPerCall, `windows: ${JSON.stringify(r.broadphase)}`).toBeLessThan(BOUND);
    expect(r.tick.bytesPerCall, `windows: ${JSON.stringify(r.tick)}`).toBeLessThan(BOUND);
  }, TIMEOUT);

  it(`moving boxes and sphere–sphere pairs (the dynamic grid, rebuilt every tick) allocate nothing: < ${BOUND} B/tick`, async () => {
    const r = await movingBoxes;
    report(`[allocation] moving boxes + sphere–sphere, contactComponent: false: tick ${f(r.tick)}; broadphase ${f(r.broadphase)}; narrowphase ${f(r.narrowphase)}`);
    expect(r.tick.gcsInBestWindow).toBe(0);
    expect(r.tick.bytesPerCall, `windows: ${JSON.stringify(r.tick)}`).toBeLessThan(BOUND);
  }, TIMEOUT);

  it(`with the Contact component: the physics allocates nothing; only bitecs's add/remove of Contact does`, async () => {
    const r = await withComponent;
    const perEvent = r.tick.bytesPerCall / Math.max(r.pairEventsPerTick, 1e-9);
    report(`[allocation] Contact component on: tick ${f(r.tick)} with ${r.pairEventsPerTick.toFixed(1)} pairs beginning or ending per tick (${perEvent.toFixed(0)} B per pair event, inside bitecs); broadphase ${f(r.broadphase)}; narrowphase with persisting contacts ${f(r.narrowphase)}; integrate ${f(r.integrate)}`);
    expect(r.tick.gcsInBestWindow).toBe(0);
    expect(r.broadphase.bytesPerCall, `windows: ${JSON.stringify(r.broadphase)}`).toBeLessThan(BOUND);
    // Repeating the narrowphase on the same poses: every contact persists, no structural change.
    expect(r.narrowphase.bytesPerCall, `windows: ${JSON.stringify(r.narrowphase)}`).toBeLessThan(BOUND);
    // Full ticks: bounded by bitecs's cost per structural change (≤ 2 per pair event).
    expect(r.pairEventsPerTick).toBeGreaterThan(0);
    expect(perEvent).toBeLessThan(1200);
  }, TIMEOUT);

  it(`every sphere dynamic (collision response, BOUNCE, sphere–sphere) allocates nothing: < ${BOUND} B/tick`, async () => {
    const r = await response;
    report(`[allocation] response (every sphere BOUNCE e = 1, sphere–sphere), contactComponent: false: tick ${f(r.tick)}; broadphase ${f(r.broadphase)}; narrowphase with the response ${f(r.narrowphase)}`);
    expect(r.tick.gcsInBestWindow).toBe(0);
    expect(r.tick.bytesPerCall, `windows: ${JSON.stringify(r.tick)}`).toBeLessThan(BOUND);
    expect(r.narrowphase.bytesPerCall, `windows: ${JSON.stringify(r.narrowphase)}`).toBeLessThan(BOUND);
  });

  it(`the bouncing gas (every sphere dynamic at 20 radii a tick: the response's path grid) allocates nothing: < ${BOUND} B/tick`, async () => {
    const r = await gas;
    report(`[allocation] bouncing gas, 250 spheres: tick ${f(r.tick)}; narrowphase with the response ${f(r.narrowphase)}`);
    expect(r.tick.gcsInBestWindow).toBe(0);
    expect(r.tick.bytesPerCall, `windows: ${JSON.stringify(r.tick)}`).toBeLessThan(BOUND);
    expect(r.narrowphase.bytesPerCall, `windows: ${JSON.stringify(r.narrowphase)}`).toBeLessThan(BOUND);
  }, TIMEOUT);

  it('the measurement itself is sound: a known allocation is seen, integration alone measures ~0 B/call', async () => {
    const r = await withoutComponent;
    // new Array(16) kept alive: a JSArray header plus 16 slots, 100–300 bytes whatever the pointer size.
    expect(r.control.gcsInBestWindow).toBe(0);
    expect(r.control.bytesPerCall).toBeGreaterThan(90);
    expect(r.control.bytesPerCall).toBeLessThan(300);
    expect(r.integrate.gcsInBestWindow).toBe(0);
    expect(r.integrate.bytesPerCall).toBeLessThan(BOUND);
  }, TIMEOUT);
});
