/**
 * Every contact of an entity (issue 10, item 4): `contactsOf` indexes the world contact list by
 * entity, `readContactOf` reads one contact with the normal toward the entity. Checked against an
 * independent oracle (a filter of `physics.contacts`) on random scenarios, kept fresh across ticks
 * and snapshot restores, and allocation-free per tick (child process).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox,
  addSphere,
  ContactOf,
  contactsOf,
  createPhysics,
  destroyPhysics,
  readContactOf,
  restoreSnapshot,
  saveSnapshot,
  snapshotSize,
  step,
  type Physics,
} from '../../src/index.js';
import { internalsOf } from '../../src/physics/internal.js';
import { forAllFrozen } from '../support/properties.js';
import { report } from '../support/report.js';
import { applyOps, scenarioArb, startRun } from '../support/harness.js';

/** The oracle: indices of the contacts that involve `eid`, ascending, by a plain scan. */
function scanContactsOf(physics: Physics, eid: number): number[] {
  const c = physics.contacts;
  const out: number[] = [];
  for (let i = 0; i < c.count; i++) if (c.a[i] === eid || c.b[i] === eid) out.push(i);
  return out;
}

/** The index's contacts of `eid`, read through `readContactOf`, checked field by field. */
function indexedContactsOf(physics: Physics, eid: number): number[] {
  const c = physics.contacts;
  const out: number[] = [];
  const r = new ContactOf();
  for (let k = 0; readContactOf(physics, eid, k, r); k++) {
    const i = r.index;
    const sign = c.a[i] === eid ? 1 : -1;
    expect([r.other, r.nx, r.ny, r.nz]).toEqual([sign === 1 ? c.b[i] : c.a[i], sign * c.nx[i], sign * c.ny[i], sign * c.nz[i]]);
    expect([r.depth, r.px, r.py, r.pz, r.toi, r.flags]).toEqual([c.depth[i], c.px[i], c.py[i], c.pz[i], c.toi[i], c.flags[i]]);
    out.push(i);
  }
  const index = contactsOf(physics);
  expect(out.length).toBe(index.count[eid] ?? 0);
  return out;
}

function expectIndexMatches(physics: Physics, label: string): void {
  const max = internalsOf(physics).maxEid + 2;
  for (let e = 0; e <= max; e++) {
    const expected = scanContactsOf(physics, e);
    expect(indexedContactsOf(physics, e), `${label}: entity ${e}`).toEqual(expected);
    // The Contact component counts the same contacts.
    if (physics.contactComponent) expect(physics.components.Contact.count[e] ?? 0, `${label}: Contact.count ${e}`).toBe(expected.length);
  }
}

describe('contactsOf: every contact of an entity', () => {
  it('matches a scan of physics.contacts for every entity, tick after tick (random scenarios)', () => {
    forAllFrozen(scenarioArb({ maxBodies: 14, maxTicks: 5, range: 3 }), { numRuns: 120, seed: 1017 }, (sc) => {
      const run = startRun(sc);
      for (let t = 0; t < sc.ticks.length; t++) {
        applyOps(run, sc.ticks[t]);
        step(run.physics);
        // Read it on some ticks only: a skipped tick must not leave a stale index behind.
        if (t % 2 === 0 || t === sc.ticks.length - 1) expectIndexMatches(run.physics, `tick ${t}`);
      }
    });
  });

  it('regression: a ball resting on a floor that reaches a wall in the same tick sees both (the Contact component holds one)', () => {
    const physics = createPhysics(createWorld(), { dt: 1 });
    const floor = addBox(physics, { position: [0, -1, 0], halfExtents: [20, 1, 20] });
    const wall = addBox(physics, { position: [3, 1, 0], halfExtents: [0.25, 2, 2] });
    const ball = addSphere(physics, { position: [0, 0.5, 0], radius: 0.5, velocity: [5, 0, 0] });
    step(physics);
    const C = physics.components.Contact;
    expect([C.other[ball], C.count[ball]]).toEqual([floor, 2]); // the primary: resting, toi 0
    const seen: number[] = [];
    const r = new ContactOf();
    for (let k = 0; readContactOf(physics, ball, k, r); k++) seen.push(r.other);
    expect(seen.sort()).toEqual([floor, wall].sort());
    expect(readContactOf(physics, ball, 1, r) && r.other === wall && r.nx === -1 && r.toi > 0).toBe(true);
  });

  it('after a restoreSnapshot the index follows the restored contact list', () => {
    const physics = createPhysics(createWorld(), { dt: 1 });
    const box = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    const s = addSphere(physics, { position: [-4, 0, 0], radius: 0.5, velocity: [1, 0, 0] });
    for (let t = 0; t < 3; t++) step(physics); // touching since tick 2
    const saved = new Uint8Array(snapshotSize(physics));
    saveSnapshot(physics, saved);
    expect(contactsOf(physics).count[s]).toBe(1);
    for (let t = 0; t < 4; t++) step(physics); // moved through: no contact
    expect(contactsOf(physics).count[s]).toBe(0);
    restoreSnapshot(physics, saved);
    expect(scanContactsOf(physics, s)).toEqual([0]);
    expect([contactsOf(physics).count[s], contactsOf(physics).count[box]]).toEqual([1, 1]);
  });

  it('out of range reads return false; a destroyed instance throws', () => {
    const physics = createPhysics(createWorld(), { capacity: 4 });
    addSphere(physics, { position: [0, 0, 0], radius: 1 });
    const r = new ContactOf();
    expect([readContactOf(physics, 1, 0, r), readContactOf(physics, 1, -1, r), readContactOf(physics, 1e6, 0, r), readContactOf(physics, -3, 0, r)]).toEqual([false, false, false, false]);
    step(physics);
    expect(readContactOf(physics, 1, 0, r)).toBe(false);
    destroyPhysics(physics);
    expect(() => contactsOf(physics)).toThrow(/destroyed/);
  });

  it('building and reading it after every narrowphase allocates nothing (< 64 B/call, child process)', async () => {
    const child = fileURLToPath(new URL('./contactsOf.child.ts', import.meta.url));
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', '--min-semi-space-size=128', '--max-semi-space-size=128', '--import', 'tsx', child],
      { cwd: root, timeout: 600_000 },
    );
    type Phase = { bytesPerCall: number; gcs: number };
    const r = JSON.parse(stdout.trim().split('\n').pop()!) as { rebuild: Phase; tick: Phase; contactsRead: number };
    report(`[contactsOf] narrowphase + index build + reads: ${r.rebuild.bytesPerCall.toFixed(1)} B/call; full tick + reads: ${r.tick.bytesPerCall.toFixed(1)} B/tick; ${r.contactsRead} contacts read`);
    expect(r.contactsRead).toBeGreaterThan(0);
    expect(r.rebuild.gcs).toBe(0);
    expect(r.rebuild.bytesPerCall).toBeLessThan(64);
  }, 600_000);
});
