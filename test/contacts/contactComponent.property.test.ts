/**
 * Property test of the Contact component's bookkeeping: after every tick, on random scenes with body
 * removal and id recycling, sensors, ghosts (entities that are not bodies), the game removing Contact
 * by hand, the component switched off for a tick, and snapshot save / restore, the component equals a brute-force recomputation from the
 * tick's own contact list (`physics.contacts`): held exactly by the entities in a contact, each with
 * its count and its primary contact's data (earliest toi, then the deepest, then the first listed,
 * test/oracle/bruteForce.ts `expectedContactComponents`), and every live body's count is its number
 * of contacts. Structural changes (bitecs onAdd / onRemove of Contact) happen only to the entities
 * whose membership changed during the step, and a Contact the game removed from an entity that still
 * touches comes back at the next tick. The stage computes all of this incrementally (the touching
 * lists, the HAS_CONTACT flags, the observer list of Contacts removed by someone else); the check
 * recomputes it from scratch.
 */
import { $internal, createWorld, entityExists, getEntityComponents, hasComponent, query, removeComponent } from 'bitecs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createPhysics, restoreSnapshot, saveSnapshot, SnapshotMismatchError, snapshotSize, step, type Physics } from '../../src/index.js';
import { createBruteForceTracker, expectedContactComponents } from '../oracle/bruteForce.js';
import { addSpec, applyOps, assertContactComponents, readContacts, scenarioArb, startRun, type Run, type Scenario } from '../support/harness.js';
import { report } from '../support/report.js';

const stats = { scenarios: 0, ticks: 0, direct: 0, offTicks: 0, holders: 0, dropped: 0, droppedStillTouching: 0, restored: 0, mismatched: 0, structural: 0 };

/** Per tick, besides the scenario's ops: which entities lose Contact by hand, and whether to save or restore. */
interface Extra {
  /** Picks among the entities holding Contact, removed with bitecs before the step. */
  drop: number[];
  /** 'save' after the step's check; 'restore' the last save before this tick's ops. */
  snap: 'none' | 'save' | 'restore';
  /** Step with `contactComponent: false` (no Contact changes at all), switched back on after. */
  off: boolean;
}

const extraArb = fc.record({
  drop: fc.array(fc.nat(), { maxLength: 3 }),
  snap: fc.constantFrom<Extra['snap']>('none', 'none', 'save', 'restore'),
  off: fc.integer({ min: 0, max: 5 }).map((k) => k === 0),
});

const sceneArb = (o: Parameters<typeof scenarioArb>[0]) =>
  scenarioArb(o).chain((sc) => fc.tuple(fc.constant(sc), fc.array(extraArb, { minLength: sc.ticks.length, maxLength: sc.ticks.length })));

/** The entities of the run's world that hold Contact (bodies and ghosts), ascending. */
function holders(run: Run): number[] {
  const C = run.physics.components.Contact;
  return run.alive.filter((e) => entityExists(run.world, e) && hasComponent(run.world, e, C)).sort((x, y) => x - y);
}

/** The Contact component against a recomputation from `physics.contacts` (see the file header). */
function checkAgainstList(run: Run, label: string): void {
  const { physics } = run;
  const contacts = readContacts(physics);
  assertContactComponents(physics, run.alive, contacts, label);
  const want = expectedContactComponents(contacts);
  const C = physics.components.Contact;
  for (const e of run.bodies) {
    const n = want.get(e)?.count ?? 0;
    if (C.count[e] !== n) throw new Error(`${label}: Contact.count of body ${e} is ${C.count[e]}, it has ${n} contacts`);
  }
  stats.holders += want.size;
}

function save(physics: Physics): Uint8Array {
  const buffer = new Uint8Array(snapshotSize(physics));
  saveSnapshot(physics, buffer);
  return buffer;
}

/**
 * A run whose world has no bitecs query of Contact (startRun's event observers register one): the
 * Contact stage then writes bitecs's mask bit and component set itself (contactComponent.ts,
 * `directWorld`). Its `events` record nothing.
 */
function startUnwatched(sc: Scenario): Run {
  const world = createWorld();
  const physics = createPhysics(world, {
    dt: sc.dt, continuous: sc.continuous, capacity: 4, ...(sc.cellSize !== null ? { cellSize: sc.cellSize } : {}),
  });
  const events = { added: [] as number[], removed: [] as number[], reset() {}, dispose() {} };
  const run: Run = {
    world, physics, tracker: createBruteForceTracker(physics), alive: [], bodies: new Set(), recycled: 0, everUsed: new Set(), events,
  };
  for (const b of sc.bodies) {
    const e = addSpec(physics, b);
    run.alive.push(e);
    run.bodies.add(e);
    run.everUsed.add(e);
  }
  return run;
}

/** No query holds Contact (else the stage goes through bitecs's calls, not its direct writes). */
function expectNoContactQuery(run: Run, label: string): void {
  const ctx = (run.world as unknown as Record<symbol, { componentMap: Map<object, { queries: Set<unknown> }> }>)[$internal];
  const reg = ctx.componentMap.get(run.physics.components.Contact);
  if (reg !== undefined && reg.queries.size !== 0) throw new Error(`${label}: a query holds Contact`);
}

/** bitecs's two records of Contact agree for every live entity: the mask bit and the component set. */
function checkComponentSets(run: Run, label: string): void {
  const C = run.physics.components.Contact;
  for (const e of run.alive) {
    if (!entityExists(run.world, e)) continue;
    const inSet = getEntityComponents(run.world, e).includes(C);
    if (inSet !== hasComponent(run.world, e, C)) throw new Error(`${label}: entity ${e}: Contact in its component set ${inSet}, its mask bit ${!inSet}`);
  }
}

function runChecked(sc: Scenario, extras: Extra[], watched = true): void {
  const run = watched ? startRun(sc) : startUnwatched(sc);
  const { physics, world } = run;
  const C = physics.components.Contact;
  let saved: Uint8Array | null = null;
  // Whether the save followed a tick with the component on (else it holds the component as it was).
  let savedCurrent = false;
  stats.scenarios++;
  sc.ticks.forEach((ops, t) => {
    const extra = extras[t];
    const label = `tick ${t}`;
    if (extra.snap === 'restore' && saved !== null) {
      try {
        restoreSnapshot(physics, saved);
        stats.restored++;
        if (savedCurrent) checkAgainstList(run, `${label}, after the restore`);
      } catch (e) {
        // Bodies were added or removed since the save: the restore refuses and changes nothing.
        if (!(e instanceof SnapshotMismatchError)) throw e;
        stats.mismatched++;
      }
    }
    applyOps(run, ops);
    const held = holders(run);
    for (const pick of extra.drop) {
      const now = holders(run);
      if (now.length === 0) break;
      removeComponent(world, now[pick % now.length], C);
      stats.dropped++;
    }
    const dropped = held.filter((e) => !hasComponent(world, e, C));
    const before = new Set(holders(run));
    run.events.reset();
    if (extra.off) {
      // Off for one tick: no structural change, whatever the contacts do; the next tick catches up.
      physics.contactComponent = false;
      step(physics);
      physics.contactComponent = true;
      expect(run.events.added.length + run.events.removed.length, `${label}: Contact changed while off`).toBe(0);
      stats.offTicks++;
      stats.ticks++;
      // A save here holds a touching list older than its pairs: the restore must not trust it.
      if (extra.snap === 'save') {
        saved = save(physics);
        savedCurrent = false;
      }
      return;
    }
    step(physics);
    checkAgainstList(run, label);
    if (!watched) {
      expectNoContactQuery(run, label);
      checkComponentSets(run, label);
      stats.direct++;
    }
    // A Contact the game removed from an entity still touching is back.
    const after = new Set(holders(run));
    const contacts = readContacts(physics);
    for (const e of dropped) {
      if (contacts.some((k) => k.a === e || k.b === e)) {
        stats.droppedStillTouching++;
        expect(after.has(e), `${label}: entity ${e} lost Contact by hand and touches again`).toBe(true);
      }
    }
    // Structural changes only where membership changed during the step, one each.
    if (!watched) {
      stats.ticks++;
      return;
    }
    const added = [...after].filter((e) => !before.has(e)).sort((x, y) => x - y);
    const removed = [...before].filter((e) => !after.has(e)).sort((x, y) => x - y);
    const sorted = (l: number[]) => [...l].sort((x, y) => x - y);
    expect(sorted(run.events.added), `${label}: Contact added`).toEqual(added);
    expect(sorted(run.events.removed), `${label}: Contact removed`).toEqual(removed);
    stats.structural += added.length + removed.length;
    if (extra.snap === 'save') {
      saved = save(physics);
      savedCurrent = true;
    }
    stats.ticks++;
  });
  if (!watched) {
    // A query registered now is built from the masks; with it the stage takes bitecs's calls.
    const q = query(world, [C]);
    expect([...q].sort((x, y) => x - y), 'query after the direct writes').toEqual(holders(run));
    for (let k = 0; k < 2; k++) {
      step(physics);
      checkAgainstList(run, `after the query, tick ${k}`);
      expect([...query(world, [C])].sort((x, y) => x - y), `query, tick ${k}`).toEqual(holders(run));
    }
  }
  run.events.dispose();
}

const opts = (seed: number, numRuns: number) => ({ seed, numRuns, interruptAfterTimeLimit: 25_000 });

describe('Contact component = recomputation from the contact list, every tick', () => {
  afterAll(() => {
    report(`[contactComponent.property] ${JSON.stringify(stats)}`);
  });

  it('random scenes with churn, recycled ids, sensors, Contact removed by hand, snapshot restores (seed 2511)', () => {
    const before = { ...stats };
    fc.assert(fc.property(sceneArb({ maxTicks: 8 }), ([sc, extras]) => runChecked(sc, extras)), opts(2511, 300));
    // The scenes exercise what they claim to.
    expect(stats.holders - before.holders).toBeGreaterThan(500);
    expect(stats.droppedStillTouching - before.droppedStillTouching).toBeGreaterThan(8);
    expect(stats.restored - before.restored).toBeGreaterThan(50);
    expect(stats.structural - before.structural).toBeGreaterThan(300);
    report(`[contactComponent.property] seed 2511: ${JSON.stringify(Object.fromEntries(Object.entries(stats).map(([k, v]) => [k, v - before[k as keyof typeof stats]])))}`);
  });

  it('no query of Contact in the world (the stage writes bitecs\'s records itself), then one registered (seed 2513)', () => {
    const before = { ...stats };
    fc.assert(fc.property(sceneArb({ maxTicks: 8, maxBodies: 20 }), ([sc, extras]) => runChecked(sc, extras, false)), opts(2513, 300));
    expect(stats.direct - before.direct).toBeGreaterThan(500);
    expect(stats.holders - before.holders).toBeGreaterThan(500);
    expect(stats.droppedStillTouching - before.droppedStillTouching).toBeGreaterThan(8);
    report(`[contactComponent.property] seed 2513: ${JSON.stringify(Object.fromEntries(Object.entries(stats).map(([k, v]) => [k, v - before[k as keyof typeof stats]])))}`);
  });

  it('random dense lattice scenes: many touching entities per tick (seed 2512)', () => {
    const before = { ...stats };
    fc.assert(fc.property(sceneArb({ lattice: true, range: 2, maxBodies: 24, maxTicks: 6 }), ([sc, extras]) => runChecked(sc, extras)), opts(2512, 120));
    expect(stats.holders - before.holders).toBeGreaterThan(1000);
    expect(stats.droppedStillTouching - before.droppedStillTouching).toBeGreaterThan(12);
    report(`[contactComponent.property] seed 2512: ${JSON.stringify(Object.fromEntries(Object.entries(stats).map(([k, v]) => [k, v - before[k as keyof typeof stats]])))}`);
  });
});
