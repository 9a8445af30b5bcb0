/**
 * Corrupted snapshots are never silently accepted (issue 9): the checksum catches every single-byte
 * corruption of the sweep snapshots, the range checks reject out-of-range fields before anything is
 * written (with `verify: false` too, and in snapshots whose checksum was recomputed after the edit),
 * and every failure is a `SnapshotMismatchError` naming the field. Figures behind
 * BITECS_COLLIDE_REPORT=1; the full sweep (every byte of every sweep snapshot, with and without
 * verification) is `npx tsx scripts/snapshotSweep.ts`.
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addSphere, createPhysics, restoreSnapshot, saveSnapshot, snapshotSize, SnapshotMismatchError, step, type Physics } from '../../src/index.js';
import { H_CONTACTS, H_VERSION_OPTIONS, HEADER_BYTES, TOUCH_U32 } from '../../src/snapshot/format.js';
import { report } from '../support/report.js';
import { layoutOf, reseal, toVersion5 } from '../support/snapshotEdits.js';
import { digest } from './scene.js';
import { buildSweepScene, buildSweepScenes, emptyCounts, formatCounts, sweep } from './sweep.js';

describe('byte × bit sweep', () => {
  // Every byte of the first snapshot, every third byte of the others (the full sweep of all five:
  // scripts/snapshotSweep.ts).
  it('every single-byte corruption (each bit, and 0xFF) of the sweep snapshots is caught, the state unchanged', () => {
    const total = emptyCounts();
    for (const [n, scene] of buildSweepScenes().entries()) {
      const counts = emptyCounts();
      sweep(scene, true, counts, n === 0 ? 1 : 3, n % 3);
      report(formatCounts(`verify on, ${scene.name} (${scene.snap.length} bytes)`, counts));
      expect(counts.failures).toEqual([]);
      expect(counts.caught).toBe(counts.attempts);
      for (const k of ['attempts', 'caught', 'identical', 'different', 'otherError', 'changedOnThrow'] as const) total[k] += counts[k];
    }
    report(formatCounts('verify on, all scenes', total));
    expect(total.attempts).toBeGreaterThan(20_000);
  });

  it('with verify: false the range checks alone never crash nor half-restore (every 7th byte of each snapshot)', () => {
    const total = emptyCounts();
    for (const scene of buildSweepScenes()) sweep(scene, false, total, 7, scene.snap.length % 7);
    report(formatCounts('verify: false, every 7th byte', total));
    expect(total.failures).toEqual([]);
    expect(total.otherError + total.changedOnThrow).toBe(0);
    expect(total.caught).toBeGreaterThan(0);
  });
});

/** The snapshot's uint32 words (a copy). */
function words(snap: Uint8Array): Uint32Array {
  return new Uint32Array(snap.slice().buffer);
}

/** A field name and an in-place edit of a snapshot's words that corrupts it. */
type Edit = [field: string, edit: (w: Uint32Array) => void];

function expectField(physics: Physics, ids: number[], snap: Uint8Array, field: string, message?: RegExp): void {
  const before = digest(physics, ids);
  let err: unknown;
  try {
    restoreSnapshot(physics, snap);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(SnapshotMismatchError);
  expect((err as SnapshotMismatchError).field).toBe(field);
  if (message) expect((err as Error).message).toMatch(message);
  expect(digest(physics, ids)).toBe(before);
}

describe('range checks before any write (checksum recomputed after the edit)', () => {
  const scene = buildSweepScene('fields', undefined);
  const { physics, ids, snap } = scene;
  const f64At = (w: Uint32Array, word: number) => new Float64Array(w.buffer, 0, w.length >>> 1).subarray(word);
  /** Each edit on a fresh copy of `snap`, resealed: restore must reject it naming `field`. */
  const expectEdits = (edits: Edit[]) => {
    for (const [field, edit] of edits) {
      const w = words(snap);
      edit(w);
      expectField(physics, ids, reseal(w), field);
    }
  };

  it('the checksum itself: a flipped body float is caught as `checksum`, and accepted with verify: false', () => {
    const w = words(snap);
    const x0 = HEADER_BYTES / 8; // the first body's position x: the first word after the header
    f64At(w, x0)[0] += 1;
    const bad = new Uint8Array(w.buffer);
    expectField(physics, ids, bad, 'checksum');
    restoreSnapshot(physics, bad, 0, { verify: false });
    expect(physics.components.Position.x[ids[0]]).toBe(new Float64Array(snap.slice().buffer)[x0] + 1);
    restoreSnapshot(physics, scene.later);
  });

  it('broadphase cell size: negative, NaN, subnormal, infinite', () => {
    for (const cell of [-2, NaN, 1e-310, Infinity, -0.5]) {
      const w = words(snap);
      f64At(w, 9)[0] = cell;
      expectField(physics, ids, reseal(w), 'cellSize');
    }
  });

  it('tick: NaN, negative, fractional, beyond 2^53', () => {
    for (const tick of [NaN, -1, 2.5, 2 ** 60, Infinity]) {
      const w = words(snap);
      f64At(w, 8)[0] = tick;
      expectField(physics, ids, reseal(w), 'tick');
    }
  });

  it('header: version, option bits, the reserved word, counts', () => {
    let w = words(snap);
    w[H_VERSION_OPTIONS] = (1 << 24) | (w[H_VERSION_OPTIONS] & 0xff);
    expectField(physics, ids, reseal(w), 'header.version');
    w = words(snap);
    w[H_VERSION_OPTIONS] = (7 << 24) | (w[H_VERSION_OPTIONS] & 0xff);
    expectField(physics, ids, reseal(w), 'header.version');
    w = words(snap);
    w[H_VERSION_OPTIONS] |= 8;
    expectField(physics, ids, reseal(w), 'header.options');
    w = words(snap);
    w[H_VERSION_OPTIONS] |= 3;
    expectField(physics, ids, reseal(w), 'header.options');
    // Word 7 is reserved (zero) before version 6, which keeps the margin policy there
    // (staticMargin.test.ts checks that form).
    w = new Uint32Array(toVersion5(words(snap)));
    w[7] = 1;
    expectField(physics, ids, reseal(w), 'header.counts');
    w = words(snap);
    w[H_CONTACTS] += 1;
    expectField(physics, ids, reseal(w), 'header.total');
  });

  it('contact and ended pairs: ids that are not bodies, out of order, flags', () => {
    const l = layoutOf(words(snap));
    const k = l.contactAB >>> 2;
    const edits: Edit[] = [
      ['contacts.pair', (w) => { w[k] = 9999; }],
      ['contacts.pair', (w) => { w[k + 1] = 0x80000003; }],
      ['contacts.pair', (w) => { w[k + 1] = w[k]; }],
      ['contacts.pair', (w) => { [w[k], w[k + 2]] = [w[k + 2], w[k]]; [w[k + 1], w[k + 3]] = [w[k + 3], w[k + 1]]; }],
      ['contacts.flags', (w) => { new Uint8Array(w.buffer)[l.flagsU8] = 3; }],
      ['contacts.flags', (w) => { new Uint8Array(w.buffer)[l.flagsU8] = 16 | 1; }],
      ['contacts.data', (w) => { new Float64Array(w.buffer)[(l.contactF64 >>> 3) + 7] = 1.5; }],
      ['contacts.data', (w) => { new Float64Array(w.buffer)[l.contactF64 >>> 3] = NaN; }],
      ['ended.flags', (w) => { new Uint8Array(w.buffer)[l.endedFlagsU8] = 2; }],
      ['ended.pair', (w) => { w[l.endedU32 >>> 2] = 0; }],
      ['ended.pair', (w) => { w[(l.endedU32 >>> 2) + 1] = 0xffffffff; }],
    ];
    expect(l.contacts).toBeGreaterThan(1);
    expect(l.ended).toBeGreaterThan(0);
    expectEdits(edits);
  });

  it('touching and removed-body records: entity words ≥ 2^31 never reach bitecs; bad primary references; repeats', () => {
    const l = layoutOf(words(snap));
    const t = l.touchingU32 >>> 2;
    const p = l.purgeU32 >>> 2;
    const edits: Edit[] = [
      ['touching.entity', (w) => { w[t] = 0x80000000 | w[t]; }],
      ['touching.entity', (w) => { w[t] = 0xa0000005; }],
      ['touching.entity', (w) => { w[t + TOUCH_U32] = w[t]; }],
      ['touching.primary', (w) => { w[t + 2] = l.contacts; }],
      ['touching.primary', (w) => { w[t + 2] = 0x3ffffffe; }],
      ['removed.entity', (w) => { w[p] = 0x80000000 | w[p]; }],
      ['removed.entity', (w) => { w[p] = 0xe0000001; }],
      ['removed.entity', (w) => { w[p] = 0; }],
    ];
    expect(l.touching).toBeGreaterThan(1);
    expect(l.purge).toBeGreaterThan(0);
    expectEdits(edits);
  });

  it('a primary reference to a contact of another entity, or to one that does not involve it', () => {
    const l = layoutOf(words(snap));
    const w = words(snap);
    const t = l.touchingU32 >>> 2;
    // Point the first touching entity at a contact it is not part of.
    const e = w[t] & 0x1fffffff;
    const kAB = l.contactAB >>> 2;
    let other = -1;
    for (let i = 0; i < l.contacts; i++) if (w[kAB + 2 * i] !== e && w[kAB + 2 * i + 1] !== e) other = i;
    expect(other).toBeGreaterThanOrEqual(0);
    w[t + 2] = other;
    expectField(physics, ids, reseal(w), 'touching.primary');
  });

  it('explicit Contact data the stores cannot hold bit for bit', () => {
    const off = buildSweepScene('explicit', undefined, true);
    const l = layoutOf(words(off.snap));
    expect(l.explicit).toBeGreaterThan(0);
    for (const [slot, value] of [[0, 1.5], [0, -1], [1, 0.1], [2, Infinity], [6, NaN]] as const) {
      const w = words(off.snap);
      new Float64Array(w.buffer)[(l.explicitF64 >>> 3) + slot] = value;
      expectField(off.physics, off.ids, reseal(w), 'touching.data');
    }
  });

  it('the error names the field as data, like PhysicsInputError', () => {
    const world = createWorld();
    const p = createPhysics(world);
    addSphere(p, { position: [0, 0, 0], radius: 1 });
    step(p);
    const buf = new Uint8Array(snapshotSize(p));
    saveSnapshot(p, buf);
    buf[100] ^= 1;
    try {
      restoreSnapshot(p, buf);
      expect.unreachable();
    } catch (e) {
      const err = e as SnapshotMismatchError;
      expect(err.name).toBe('SnapshotMismatchError');
      expect(err.field).toBe('checksum');
      expect(err.index).toBe(-1);
      expect(err.message).toMatch(/^bitecs-collide: restoreSnapshot: checksum: /);
    }
  });
});
