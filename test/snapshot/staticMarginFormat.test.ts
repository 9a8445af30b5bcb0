/**
 * The static margin policy in the snapshot format (version 6: header float64 word `F_MARGIN`, header
 * word 7 `H_POLICY`; src/snapshot/format.ts): a version-5 snapshot made from a version-6 one (the
 * margin dropped, word 7 zeroed) is still read and restores the same physics state, the margin to
 * be picked afresh at the next step as before version 6; corrupt policy fields are rejected naming
 * the field, with nothing changed (the policy state included).
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addBox, addSphere, createPhysics, hashPhysicsState, PhysicsInputError, restoreSnapshot, saveSnapshot, snapshotSize, step, type Physics } from '../../src/index.js';
import { internalsOf } from '../../src/physics/internal.js';
import { BUCKETS } from '../../src/grid/policy.js';
import {
  F_CELL, F_MARGIN, H_POLICY, H_VERSION_OPTIONS, HEADER_BYTES, HEADER_BYTES_V5, POLICY_BUCKET, POLICY_PENDING,
} from '../../src/snapshot/format.js';
import { expectRestoreRejected, reseal, toVersion5 } from '../support/snapshotEdits.js';

/** A floor, a wall and bouncing balls of a few sizes, stepped `ticks` times. */
function room(ticks: number): Physics {
  const p = createPhysics(createWorld(), { capacity: 32, gravity: [0, -9.81, 0] });
  addBox(p, { position: [0, -1, 0], halfExtents: [8, 1, 8] });
  addBox(p, { position: [-5, 2, 0], halfExtents: [1, 3, 8] });
  for (let i = 0; i < 8; i++) {
    addSphere(p, { position: [-3 + i * 0.9, 1 + (i % 3), 0], velocity: [i % 2 === 0 ? -2 : 1, 0, 0], radius: 0.2 + 0.1 * (i % 4), response: 'bounce', restitution: 0.4 });
  }
  for (let t = 0; t < ticks; t++) step(p);
  return p;
}

function save(p: Physics): Uint32Array {
  const buf = new ArrayBuffer(snapshotSize(p));
  saveSnapshot(p, buf);
  return new Uint32Array(buf);
}

/** The broadphase's margin policy state: margin, cover bucket, re-pick due, cell size. */
function policy(p: Physics): [number, number, boolean, number] {
  const bp = internalsOf(p).broadphase;
  return [bp.staticGrid.margin, bp.marginBucket, bp.staticDirty, bp.cellSize];
}

describe('static margin policy: format', () => {
  it('a version-6 snapshot holds the margin (length units, at most the cell size), its bucket and no pending re-pick after a step', () => {
    const p = room(3);
    const w = save(p);
    const f64 = new Float64Array(w.buffer);
    const [margin, bucket] = policy(p);
    expect(margin).toBeGreaterThan(0);
    expect(f64[F_MARGIN]).toBe(margin);
    expect(margin).toBeLessThanOrEqual(f64[F_CELL]);
    expect(w[H_POLICY]).toBe(bucket + 1);
    // Saved before any step: nothing picked yet, a re-pick due.
    expect(save(room(0))[H_POLICY]).toBe(POLICY_PENDING);
  });

  it('a version-5 snapshot (no margin, word 7 zero) is read and restores the same physics state; the margin is picked at the next step', () => {
    const a = room(3);
    const v6 = save(a);
    const v5 = new Uint32Array(toVersion5(v6));
    expect(v5.byteLength).toBe(v6.byteLength - (HEADER_BYTES - HEADER_BYTES_V5));
    const b = room(5);
    const c = room(5);
    expect(restoreSnapshot(b, v6.buffer as ArrayBuffer)).toBe(v6.byteLength);
    expect(restoreSnapshot(c, v5.buffer as ArrayBuffer)).toBe(v5.byteLength);
    expect(hashPhysicsState(c)).toBe(hashPhysicsState(a));
    expect(hashPhysicsState(c)).toBe(hashPhysicsState(b));
    expect(policy(b)).toEqual(policy(a));
    // Version 5 kept no margin: none until the next step picks one (not the one `c` held before).
    expect(policy(c)).toEqual([0, -1, true, policy(a)[3]]);
    // The body records, contacts and the rest after the header are the same bytes.
    const resaved = save(c);
    expect(resaved.subarray(HEADER_BYTES / 4)).toEqual(v6.subarray(HEADER_BYTES / 4));
    expect(resaved[H_POLICY]).toBe(POLICY_PENDING);
    step(c);
    expect(policy(c)[0]).toBeGreaterThan(0);
  });

  it('with validate, the step after a restore still checks the static boxes the restore re-bucketed', () => {
    const a = room(3);
    const w = save(a);
    new Float64Array(w.buffer)[HEADER_BYTES / 8] = NaN; // the floor's position x (entity 1: the first record)
    reseal(w);
    const b = room(3);
    restoreSnapshot(b, w.buffer as ArrayBuffer);
    expect(internalsOf(b).broadphase.staticDirty).toBe(false); // no re-pick due: bucketed by the restore
    expect(() => step(b)).toThrow(PhysicsInputError);
    restoreSnapshot(b, save(a).buffer as ArrayBuffer);
    step(b);
    step(a);
    expect(hashPhysicsState(b)).toBe(hashPhysicsState(a));
  });

  it('corrupt margin policy fields are rejected naming the field, with nothing changed', () => {
    const a = room(3);
    const v6 = save(a);
    const cell = new Float64Array(v6.buffer)[F_CELL];
    const b = room(6);
    const before = policy(b);
    const edit = (f: (w: Uint32Array, f64: Float64Array) => void): ArrayBuffer => {
      const w = v6.slice();
      f(w, new Float64Array(w.buffer));
      return reseal(w).buffer as ArrayBuffer;
    };
    for (const m of [NaN, -1, Infinity, 2 * cell, cell * (1 + 2 ** -52)]) {
      expectRestoreRejected(b, edit((_w, f64) => { f64[F_MARGIN] = m; }), 'staticMargin');
    }
    // A positive margin without a bucket (word 7's bucket bits 0): no run holds one.
    expectRestoreRejected(b, edit((w) => { w[H_POLICY] &= ~POLICY_BUCKET; }), 'staticMargin');
    expectRestoreRejected(b, edit((w) => { w[H_POLICY] = BUCKETS + 1; }), 'marginBucket');
    expectRestoreRejected(b, edit((w) => { w[H_POLICY] |= POLICY_BUCKET; }), 'marginBucket');
    expectRestoreRejected(b, edit((w) => { w[H_POLICY] |= POLICY_PENDING << 1; }), 'marginBucket');
    // A version-6 snapshot cut to the version-5 header size is caught by its total.
    expectRestoreRejected(b, edit((w) => { w[H_VERSION_OPTIONS] = (5 << 24) | (w[H_VERSION_OPTIONS] & 0xffffff); }), 'header.total');
    expect(policy(b)).toEqual(before);
    // The edits' extremes are accepted: margin 0 with or without a bucket, a margin of the cell size.
    restoreSnapshot(b, edit((_w, f64) => { f64[F_MARGIN] = cell; }));
    expect(policy(b)[0]).toBe(cell);
    restoreSnapshot(b, edit((w, f64) => { f64[F_MARGIN] = 0; w[H_POLICY] = POLICY_PENDING; }));
    expect(policy(b).slice(0, 3)).toEqual([0, -1, true]);
  });
});
