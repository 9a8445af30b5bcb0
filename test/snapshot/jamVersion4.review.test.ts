/**
 * The version-4 reader (snapshots before the jam mark) on balls with the words that follow the
 * Response record in a body record (Material friction) and with CollisionFilter words (their own
 * section): a version-4 form of a version-6 snapshot, made by dropping the header's margin word
 * (version 6) and each Response record's jam word, restores every mark as 0 and the same state
 * (state hash, the ticks that follow) as the version-6 snapshot restored with its marks cleared. A
 * jam mark of 2 on a ball with friction is rejected naming bodies.jam, with nothing changed.
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, createPhysics, hashPhysicsState, restoreSnapshot, saveSnapshot, snapshotSize, step, type Physics,
} from '../../src/index.js';
import { internalsOf } from '../../src/physics/internal.js';
import { jamMark } from '../../src/response/jam.js';
import { HEADER_BYTES, HEADER_BYTES_V5 } from '../../src/snapshot/format.js';
import { expectJamRejected, jamWords, toVersion4 } from '../support/snapshotEdits.js';
import { JAM_LEAN } from '../support/response.js';

/**
 * A column of 8 balls, every other one with friction, every third with a filter group, in the
 * V-groove of jamMark.test.ts (faces JAM_LEAN from parallel: every ball jammed every tick; a column
 * on a flat floor or in a wider groove no longer jams), one face added before the balls and one after.
 */
function column(): { physics: Physics; ids: number[] } {
  const physics = createPhysics(createWorld(), { gravity: [0, -9.81, 0], capacity: 64 });
  const a = JAM_LEAN, R = 0.5, H = 0.5;
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


describe('the jam mark with friction and filters in snapshots', () => {
  it('a version-4 snapshot of balls with friction and filters restores the marks as 0 and the same state as version 6 without marks', () => {
    const a = column();
    step(a.physics);
    expect(marks(a.physics, a.ids).filter((m) => m === 1).length).toBeGreaterThan(4);
    const buf = new ArrayBuffer(snapshotSize(a.physics));
    saveSnapshot(a.physics, buf);
    const v4 = toVersion4(a.physics, new Uint32Array(buf));
    // One jam word per ball, and the header's static margin word (version 6).
    expect(v4.byteLength).toBe(buf.byteLength - 8 * a.ids.length - (HEADER_BYTES - HEADER_BYTES_V5));
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
    expectJamRejected(b.physics, buf, 5, a.ids[4]);
  });
});
