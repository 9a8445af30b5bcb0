/**
 * The version-4 reader (snapshots before the jam mark) on balls with the words that follow the
 * Response record in a body record (Material friction) and with CollisionFilter words (their own
 * section): a version-4 form of a version-5 snapshot, made by dropping each Response record's jam
 * word, restores every mark as 0 and the same state (state hash, the ticks that follow) as the
 * version-5 snapshot restored with its marks cleared. A version-5 jam mark of 2 on a ball with
 * friction is rejected naming bodies.jam, with nothing changed.
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, createPhysics, hashPhysicsState, restoreSnapshot, saveSnapshot, SnapshotMismatchError, snapshotSize, step, type Physics,
} from '../../src/index.js';
import { BodyFlags } from '../../src/physics/physicsTypes.js';
import { internalsOf } from '../../src/physics/internal.js';
import { jamMark } from '../../src/response/jam.js';
import { bodyWords } from '../../src/snapshot/census.js';
import { snapshotChecksum } from '../../src/snapshot/checksum.js';
import {
  H_BODY_F64, H_CHECK1, H_CHECK2, H_CONTACTS, H_ENDED, H_EXPLICIT, H_FILTERS, H_PURGE, H_TOTAL, H_TOUCHING, H_VERSION_OPTIONS,
  HEADER_BYTES, layoutSections, SnapshotLayout,
} from '../../src/snapshot/format.js';
import { LANE1, LANE2 } from '../../src/math/hashMixer.js';

/**
 * A column of 8 balls, every other one with friction, every third with a filter group, in the
 * V-groove of jamMark.test.ts (faces leaning 1°: every ball jammed every tick; a column on a flat
 * floor no longer jams), one face added before the balls and one after.
 */
function column(): { physics: Physics; ids: number[] } {
  const physics = createPhysics(createWorld(), { gravity: [0, -9.81, 0], capacity: 64 });
  const a = Math.PI / 180, R = 0.5, H = 0.5;
  const face = (side: number): void => {
    const s = Math.sin((-side * a) / 2);
    addBox(physics, { position: [side * (R + H) * Math.cos(a), 0.5 - (R + H) * Math.sin(a), 0], halfExtents: [H, 11, 2], rotation: [0, 0, s, Math.cos((-side * a) / 2)] });
  };
  face(-1);
  const ids: number[] = [];
  for (let i = 0; i < 8; i++) {
    ids.push(addSphere(physics, {
      position: [0, 0.5 + i, 0], velocity: [0, 0, 0], radius: 0.5, response: 'bounce', restitution: 0.3,
      ...(i % 2 === 0 ? { friction: 0.5 + i } : {}), ...(i % 3 === 0 ? { group: 3 } : {}),
    }));
  }
  face(1);
  return { physics, ids };
}

const marks = (physics: Physics, ids: number[]): number[] => ids.map((e) => jamMark(internalsOf(physics), e));

function hashes(physics: Physics, ticks: number): string[] {
  const out: string[] = [];
  for (let t = 0; t < ticks; t++) {
    step(physics);
    out.push(hashPhysicsState(physics));
  }
  return out;
}

/** Index (float64 word) of each Response record's jam word in a version-5 snapshot of `physics` (default options). */
function jamWords(physics: Physics): number[] {
  const { flags, maxEid, hasMaterial } = internalsOf(physics);
  const out: number[] = [];
  let j = HEADER_BYTES / 8;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    const n = bodyWords(f, hasMaterial[eid], 0);
    if (n === 0) continue;
    if ((f & BodyFlags.RESPONSE) !== 0) out.push(j + n - 1 - hasMaterial[eid]);
    j += n;
  }
  return out;
}

/** The version-4 form of version-5 snapshot `u32` of `physics`: the jam words dropped, later sections moved up, header rewritten. */
function toVersion4(physics: Physics, u32: Uint32Array): ArrayBuffer {
  const f64 = new Float64Array(u32.buffer, u32.byteOffset, u32.length / 2);
  const l = new SnapshotLayout();
  l.contacts = u32[H_CONTACTS];
  l.ended = u32[H_ENDED];
  l.touching = u32[H_TOUCHING];
  l.explicit = u32[H_EXPLICIT];
  l.filters = u32[H_FILTERS];
  l.bodyF64 = u32[H_BODY_F64];
  l.purge = u32[H_PURGE];
  expect(layoutSections(l)).toBe(u32[H_TOTAL]);
  const drop = new Set(jamWords(physics));
  const words: number[] = [];
  for (let j = HEADER_BYTES / 8; j < HEADER_BYTES / 8 + l.bodyF64; j++) if (!drop.has(j)) words.push(f64[j]);
  const dropped = l.bodyF64 - words.length;
  const out = new ArrayBuffer(l.total - 8 * dropped);
  const o32 = new Uint32Array(out), o64 = new Float64Array(out);
  o32.set(u32.subarray(0, HEADER_BYTES / 4));
  o64.set(words, HEADER_BYTES / 8);
  o32.set(u32.subarray(l.contactF64 / 4, l.total / 4), (l.contactF64 - 8 * dropped) / 4);
  o32[H_VERSION_OPTIONS] = (4 << 24) | (u32[H_VERSION_OPTIONS] & 0xffffff);
  o32[H_BODY_F64] = words.length;
  o32[H_TOTAL] = out.byteLength;
  const lanes = new Int32Array(2);
  snapshotChecksum(o32, 0, o32.length, lanes);
  o32[H_CHECK1] = lanes[LANE1];
  o32[H_CHECK2] = lanes[LANE2];
  return out;
}

describe('the jam mark with friction and filters in snapshots', () => {
  it('a version-4 snapshot of balls with friction and filters restores the marks as 0 and the same state as version 5 without marks', () => {
    const a = column();
    step(a.physics);
    expect(marks(a.physics, a.ids).filter((m) => m === 1).length).toBeGreaterThan(4);
    const buf = new ArrayBuffer(snapshotSize(a.physics));
    saveSnapshot(a.physics, buf);
    const v4 = toVersion4(a.physics, new Uint32Array(buf));
    expect(v4.byteLength).toBe(buf.byteLength - 8 * a.ids.length);
    const b = column();
    restoreSnapshot(b.physics, buf);
    expect(marks(b.physics, b.ids)).toEqual(marks(a.physics, a.ids));
    internalsOf(b.physics).response!.jam.fill(0);
    const c = column();
    step(c.physics);
    step(c.physics);
    restoreSnapshot(c.physics, v4);
    expect(marks(c.physics, c.ids)).toEqual(c.ids.map(() => 0));
    expect(hashPhysicsState(c.physics)).toBe(hashPhysicsState(b.physics));
    expect(hashes(c.physics, 10)).toEqual(hashes(b.physics, 10));
  });

  it('a jam mark of 2 on a ball with friction is rejected naming bodies.jam and the ball, nothing changed', () => {
    const a = column();
    step(a.physics);
    const buf = new ArrayBuffer(snapshotSize(a.physics));
    saveSnapshot(a.physics, buf);
    const words = jamWords(a.physics);
    // The 5th ball (index 4: friction, no filter); its record is the 6th (after the floor's).
    const f64 = new Float64Array(buf);
    expect(f64[words[4]]).toBe(jamMark(internalsOf(a.physics), a.ids[4]));
    f64[words[4]] = 2;
    const b = column();
    step(b.physics);
    step(b.physics);
    const h = hashPhysicsState(b.physics);
    let err: unknown;
    try {
      restoreSnapshot(b.physics, buf, 0, { verify: false });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SnapshotMismatchError);
    expect((err as SnapshotMismatchError).field).toBe('bodies.jam');
    expect((err as SnapshotMismatchError).index).toBe(5);
    expect(String(err)).toContain(`entity ${a.ids[4]}`);
    expect(hashPhysicsState(b.physics)).toBe(h);
  });
});
