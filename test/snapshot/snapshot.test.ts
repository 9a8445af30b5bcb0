/**
 * saveSnapshot / restoreSnapshot / snapshotSize: round trips restore every output and future tick
 * bit for bit; sizes are as documented; buffer handling (offsets, Uint8Array views, misalignment,
 * too small); body-set mismatches throw before anything changes; removal and id recycling between
 * ticks; Contact component presence; restoring into another identically built world.
 */
import { addComponent, createWorld, hasComponent, removeComponent, removeEntity } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, ContactFlags, createPhysics, EndedFlags, hashPhysicsState, removeBody, restoreSnapshot, saveSnapshot, setPosition,
  setVelocity, snapshotSize, SnapshotMismatchError, step, type Physics, type SnapshotOptions,
} from '../../src/index.js';
import { buildInputScene, digest, fullState } from './scene.js';
import { internalsOf } from '../../src/physics/internal.js';
import { HEADER_BYTES } from '../../src/snapshot/format.js';

/** The header's bytes (88 since format version 6, which added the static margin policy). */
const HEADER = HEADER_BYTES;

function save(physics: Physics, options?: SnapshotOptions): Uint8Array {
  const buf = new Uint8Array(snapshotSize(physics, options));
  expect(saveSnapshot(physics, buf, 0, options)).toBe(buf.length);
  return buf;
}

describe('round trip', () => {
  it('restores every output of the saved tick and replays the following ticks bit for bit', () => {
    const s = buildInputScene(11);
    for (let t = 0; t < 60; t++) s.tick(t);
    const at60 = fullState(s.physics, s.ids);
    const snap = save(s.physics);
    const later: string[] = [];
    for (let t = 60; t < 120; t++) {
      s.tick(t);
      later.push(digest(s.physics, s.ids));
    }
    expect(fullState(s.physics, s.ids)).not.toEqual(at60);
    expect(restoreSnapshot(s.physics, snap)).toBe(snap.length);
    expect(fullState(s.physics, s.ids)).toEqual(at60);
    for (let t = 60; t < 120; t++) {
      s.tick(t);
      expect(digest(s.physics, s.ids)).toBe(later[t - 60]);
    }
  });

  it('saving the same state twice gives the same bytes; size is a multiple of 8', () => {
    const s = buildInputScene(12);
    for (let t = 0; t < 30; t++) s.tick(t);
    const a = save(s.physics);
    const b = save(s.physics);
    expect(a.length % 8).toBe(0);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    restoreSnapshot(s.physics, a);
    expect(Buffer.from(save(s.physics)).equals(Buffer.from(a))).toBe(true);
  });

  it('restores into another world built the same way (same ids): state, Contact components, future', () => {
    const a = buildInputScene(13);
    const b = buildInputScene(13);
    for (let t = 0; t < 80; t++) a.tick(t);
    expect(a.physics.contacts.count).toBeGreaterThan(0);
    restoreSnapshot(b.physics, save(a.physics));
    expect(fullState(b.physics, b.ids)).toEqual(fullState(a.physics, a.ids));
    for (let t = 80; t < 160; t++) {
      a.tick(t);
      b.tick(t);
      expect(digest(b.physics, b.ids)).toBe(digest(a.physics, a.ids));
    }
  });

  it('restores a snapshot taken before the first step (cell size not chosen yet)', () => {
    const s = buildInputScene(14);
    const snap = save(s.physics);
    const first: string[] = [];
    for (let t = 0; t < 20; t++) {
      s.tick(t);
      first.push(digest(s.physics, s.ids));
    }
    restoreSnapshot(s.physics, snap);
    expect(s.physics.tick).toBe(0);
    expect(internalsOf(s.physics).broadphase.cellSize).toBe(0);
    for (let t = 0; t < 20; t++) {
      s.tick(t);
      expect(digest(s.physics, s.ids)).toBe(first[t]);
    }
  });
});

describe('buffers', () => {
  it('writes at an offset into an ArrayBuffer, a Uint8Array view with a byteOffset, and misaligned offsets, all with the same bytes', () => {
    const s = buildInputScene(15);
    for (let t = 0; t < 40; t++) s.tick(t);
    const ref = save(s.physics);
    const n = ref.length;
    const ab = new ArrayBuffer(n + 64);
    expect(saveSnapshot(s.physics, ab, 16)).toBe(n);
    expect(Buffer.from(new Uint8Array(ab, 16, n)).equals(Buffer.from(ref))).toBe(true);
    for (const shift of [1, 3, 4, 8]) {
      const view = new Uint8Array(new ArrayBuffer(n + 40), 5);
      expect(saveSnapshot(s.physics, view, shift)).toBe(n);
      expect(Buffer.from(view.subarray(shift, shift + n)).equals(Buffer.from(ref))).toBe(true);
      const state = fullState(s.physics, s.ids);
      for (let t = 40; t < 45; t++) s.tick(t);
      expect(restoreSnapshot(s.physics, view, shift)).toBe(n);
      expect(fullState(s.physics, s.ids)).toEqual(state);
    }
    // Several snapshots back to back in one buffer.
    const big = new ArrayBuffer(16 * n);
    let off = 0;
    const offsets: number[] = [];
    const states: ReturnType<typeof fullState>[] = [];
    for (let t = 40; t < 44; t++) {
      s.tick(t);
      offsets.push(off);
      states.push(fullState(s.physics, s.ids));
      off += saveSnapshot(s.physics, big, off);
    }
    for (let i = offsets.length - 1; i >= 0; i--) {
      restoreSnapshot(s.physics, big, offsets[i]);
      expect(fullState(s.physics, s.ids)).toEqual(states[i]);
    }
  });

  it('throws a RangeError naming the sizes when the buffer is too small, writing nothing', () => {
    const s = buildInputScene(16);
    for (let t = 0; t < 10; t++) s.tick(t);
    const n = snapshotSize(s.physics);
    const small = new Uint8Array(n - 8);
    expect(() => saveSnapshot(s.physics, small)).toThrow(RangeError);
    expect(() => saveSnapshot(s.physics, small)).toThrow(new RegExp(`needs ${n} bytes but the buffer has ${n - 8}`));
    expect(small.every((b) => b === 0)).toBe(true);
    expect(() => saveSnapshot(s.physics, new Uint8Array(n), 8)).toThrow(RangeError);
    expect(() => saveSnapshot(s.physics, new Uint8Array(n), -1)).toThrow(RangeError);
    expect(() => saveSnapshot(s.physics, new Uint8Array(n), 1.5)).toThrow(RangeError);
    expect(() => saveSnapshot(s.physics, [] as unknown as Uint8Array)).toThrow(TypeError);
  });

  it('rejects buffers that hold no snapshot, or a truncated one', () => {
    const s = buildInputScene(17);
    for (let t = 0; t < 10; t++) s.tick(t);
    const h = hashPhysicsState(s.physics);
    expect(() => restoreSnapshot(s.physics, new Uint8Array(200))).toThrow(SnapshotMismatchError);
    expect(() => restoreSnapshot(s.physics, new Uint8Array(10))).toThrow(SnapshotMismatchError);
    const snap = save(s.physics);
    expect(() => restoreSnapshot(s.physics, snap.subarray(0, snap.length - 8))).toThrow(/bytes but the buffer has/);
    expect(hashPhysicsState(s.physics)).toBe(h);
  });
});

describe('body set checks', () => {
  it('throws SnapshotMismatchError and changes nothing when a body was removed, added or changed kind', () => {
    const s = buildInputScene(18);
    for (let t = 0; t < 20; t++) s.tick(t);
    const snap = save(s.physics);
    for (let t = 20; t < 30; t++) s.tick(t);
    const state = fullState(s.physics, s.ids);

    const extra = addSphere(s.physics, { position: [1, 1, 1], radius: 0.5 });
    expect(() => restoreSnapshot(s.physics, snap)).toThrow(SnapshotMismatchError);
    expect(() => restoreSnapshot(s.physics, snap)).toThrow(/bodies differ/);
    removeBody(s.physics, extra);
    // (The removal itself lists `extra` as removed since the last step; nothing else changed.)
    expect({ ...fullState(s.physics, s.ids), removed: state.removed }).toEqual(state);

    // A static box given Velocity is a different kind of body (its Velocity is not in the snapshot).
    const box = s.staticBoxes[0];
    setVelocity(s.physics, box, [1, 0, 0]);
    expect(() => restoreSnapshot(s.physics, snap)).toThrow(SnapshotMismatchError);
    removeComponent(s.world, box, s.physics.components.Velocity);

    // A removed body.
    const gone = s.spheres[3];
    removeBody(s.physics, gone);
    expect(() => restoreSnapshot(s.physics, snap)).toThrow(SnapshotMismatchError);
  });

  it('throws when an entity that held Contact at save time no longer exists', () => {
    const world = createWorld();
    const physics = createPhysics(world);
    addSphere(physics, { position: [0, 0, 0], radius: 1 });
    const b = addSphere(physics, { position: [1, 0, 0], radius: 1 });
    step(physics);
    expect(hasComponent(world, b, physics.components.Contact)).toBe(true);
    // b stops being a body but keeps its Contact component until the next step; then it is deleted.
    removeComponent(world, b, physics.components.Sphere);
    const snap = save(physics);
    removeEntity(world, b);
    expect(() => restoreSnapshot(physics, snap)).toThrow(new RegExp(`entity ${b} held the Contact component`));
  });
});

describe('removal, id recycling and Contact presence between ticks', () => {
  function pairScene() {
    const world = createWorld();
    const physics = createPhysics(world);
    const a = addSphere(physics, { position: [0, 0, 0], velocity: [0, 0, 0], radius: 1 });
    const b = addSphere(physics, { position: [1.5, 0, 0], velocity: [0, 0, 0], radius: 1 });
    const c = addSphere(physics, { position: [10, 0, 0], velocity: [0, 0, 0], radius: 1 });
    return { world, physics, a, b, c, ids: [a, b, c] };
  }

  it('a body removed after the step and before the save is reported as ended (REMOVED) after a restore too', () => {
    const s = pairScene();
    step(s.physics);
    removeBody(s.physics, s.b);
    const snap = save(s.physics);
    step(s.physics);
    const after = fullState(s.physics, [s.a, s.c]);
    expect(after.ended).toEqual([`${s.a}-${s.b}`]);
    restoreSnapshot(s.physics, snap);
    step(s.physics);
    expect(fullState(s.physics, [s.a, s.c])).toEqual(after);
  });

  it('carries the ended flags: a REMOVED pair of the last tick is REMOVED again after a restore', () => {
    const s = pairScene();
    step(s.physics);
    removeBody(s.physics, s.b);
    step(s.physics);
    expect(Array.from(s.physics.ended.flags.subarray(0, s.physics.ended.count))).toEqual([EndedFlags.REMOVED]);
    const snap = save(s.physics);
    const state = fullState(s.physics, [s.a, s.c]);
    // Into another world with the same bodies, whose ended list never held a flag.
    const t = pairScene();
    step(t.physics);
    removeBody(t.physics, t.b);
    restoreSnapshot(t.physics, snap);
    expect(fullState(t.physics, [t.a, t.c])).toEqual(state);
    expect(t.physics.ended.flags[0]).toBe(EndedFlags.REMOVED);
  });

  it('began keeps its flags (SENSOR) through a restore: rebuilt from the contact flags, the format unchanged', () => {
    const s = pairScene();
    addComponent(s.world, s.b, s.physics.components.Sensor);
    step(s.physics);
    expect(Array.from(s.physics.began.flags.subarray(0, s.physics.began.count))).toEqual([ContactFlags.BEGAN | ContactFlags.SENSOR]);
    const state = fullState(s.physics, s.ids);
    const snap = save(s.physics);
    // Into another world with the same bodies (no sensor, so its began flags differ before the restore).
    const t = pairScene();
    addComponent(t.world, t.b, t.physics.components.Sensor);
    step(t.physics);
    t.physics.began.flags[0] = 0;
    restoreSnapshot(t.physics, snap);
    expect(fullState(t.physics, t.ids)).toEqual(state);
  });

  it('a recycled id touching the same partner begins a new contact, before and after a restore', () => {
    const s = pairScene();
    step(s.physics);
    expect(s.physics.began.count).toBe(1);
    removeBody(s.physics, s.b);
    const b2 = addSphere(s.physics, { position: [1.5, 0, 0], velocity: [0, 0, 0], radius: 1 });
    expect(b2).toBe(s.b); // bitecs recycles the id
    const snap = save(s.physics);
    step(s.physics);
    const after = fullState(s.physics, s.ids);
    expect(after.began).toEqual([`${s.a}-${s.b}`]);
    restoreSnapshot(s.physics, snap);
    step(s.physics);
    expect(fullState(s.physics, s.ids)).toEqual(after);
  });

  it('a body removed and re-created with the same id after the save is restored as the saved one (contacts persist)', () => {
    const s = pairScene();
    step(s.physics);
    const snap = save(s.physics);
    step(s.physics);
    const after = fullState(s.physics, s.ids);
    expect(after.began).toEqual([]);
    // The game rolls back its entities: b is destroyed and re-created (same id) before the restore.
    removeBody(s.physics, s.b);
    expect(addSphere(s.physics, { position: [7, 7, 7], velocity: [0, 0, 0], radius: 0.1 })).toBe(s.b);
    restoreSnapshot(s.physics, snap);
    step(s.physics);
    expect(fullState(s.physics, s.ids)).toEqual(after);
  });

  it('adds and removes the Contact component to match the snapshot', () => {
    const s = pairScene();
    const C = s.physics.components.Contact;
    step(s.physics);
    const touching = save(s.physics);
    setPosition(s.physics, s.b, [20, 0, 0]);
    setPosition(s.physics, s.c, [0.5, 0.5, 0]);
    step(s.physics);
    step(s.physics);
    const apart = save(s.physics);
    expect([hasComponent(s.world, s.a, C), hasComponent(s.world, s.b, C), hasComponent(s.world, s.c, C)]).toEqual([true, false, true]);
    restoreSnapshot(s.physics, touching);
    expect([hasComponent(s.world, s.a, C), hasComponent(s.world, s.b, C), hasComponent(s.world, s.c, C)]).toEqual([true, true, false]);
    expect(C.other[s.a]).toBe(s.b);
    expect(C.count[s.c]).toBe(0);
    restoreSnapshot(s.physics, apart);
    expect([hasComponent(s.world, s.a, C), hasComponent(s.world, s.b, C), hasComponent(s.world, s.c, C)]).toEqual([true, false, true]);
    expect(C.other[s.a]).toBe(s.c);
  });

  it('keeps stale Contact data exactly when the Contact component was off for the last step', () => {
    const s = pairScene();
    step(s.physics);
    setPosition(s.physics, s.b, [20, 0, 0]);
    s.physics.contactComponent = false;
    step(s.physics);
    const before = fullState(s.physics, s.ids);
    const snap = save(s.physics);
    // Both touching entities' data match no saved contact: stored explicitly (header word 10).
    expect(new Uint32Array(snap.buffer, snap.byteOffset, 16)[10]).toBe(2);
    s.physics.contactComponent = true;
    step(s.physics);
    restoreSnapshot(s.physics, snap);
    expect(fullState(s.physics, s.ids)).toEqual(before);
  });

  it('a game-added Contact component on a non-touching entity is not tracked (documented: Contact is ours)', () => {
    const s = pairScene();
    step(s.physics);
    const snap = save(s.physics);
    addComponent(s.world, s.c, s.physics.components.Contact);
    restoreSnapshot(s.physics, snap);
    expect(hasComponent(s.world, s.c, s.physics.components.Contact)).toBe(true);
  });
});

describe('sizes', () => {
  function sizePerBody(kind: 'sphere' | 'staticSphere' | 'movingBox' | 'staticBox', n: number, options?: SnapshotOptions, filtered = false) {
    const world = createWorld();
    const physics = createPhysics(world, { capacity: n + 1 });
    for (let i = 0; i < n; i++) {
      const position: [number, number, number] = [i * 10, 0, 0];
      const extra = filtered ? { group: 1, mask: 1 } : {};
      if (kind === 'sphere') addSphere(physics, { position, velocity: [1, 0, 0], radius: 1, ...extra });
      else if (kind === 'staticSphere') addSphere(physics, { position, radius: 1, ...extra });
      else if (kind === 'movingBox') addBox(physics, { position, velocity: [1, 0, 0], halfExtents: [1, 1, 1], ...extra });
      else addBox(physics, { position, halfExtents: [1, 1, 1], ...extra });
    }
    step(physics);
    expect(physics.contacts.count).toBe(0);
    return (snapshotSize(physics, options) - HEADER) / n;
  }

  it('bytes per body are as documented', () => {
    const n = 1000;
    expect(sizePerBody('sphere', n)).toBe(56);
    expect(sizePerBody('sphere', n, undefined, true)).toBe(64);
    expect(sizePerBody('staticSphere', n)).toBe(32);
    expect(sizePerBody('movingBox', n)).toBe(104);
    expect(sizePerBody('staticBox', n)).toBe(80);
    expect(sizePerBody('staticBox', n, { shapes: 'dynamic' })).toBe(24);
    expect(sizePerBody('movingBox', n, { shapes: 'dynamic' })).toBe(104);
    expect(sizePerBody('sphere', n, { shapes: 'none' })).toBe(48);
    expect(sizePerBody('movingBox', n, { shapes: 'none' })).toBe(48);
    expect(sizePerBody('staticBox', n, { shapes: 'none' })).toBe(24);
    expect(sizePerBody('staticBox', n, { staticBoxes: false })).toBe(0);
  });

  it('live contacts cost 73 bytes each, plus 9 per ended pair and 12 per touching entity', () => {
    const world = createWorld();
    const physics = createPhysics(world);
    addSphere(physics, { position: [0, 0, 0], velocity: [0, 0, 0], radius: 1 });
    const b = addSphere(physics, { position: [1, 0, 0], velocity: [0, 0, 0], radius: 1 });
    const empty = snapshotSize(physics);
    step(physics);
    expect(physics.contacts.count).toBe(1);
    // 1 contact (73) + 2 touching entities (24) = 97, rounded up to 8.
    expect(snapshotSize(physics) - empty).toBe(Math.ceil((2 * 56 + 97) / 8) * 8 - 2 * 56);
    setPosition(physics, b, [5, 0, 0]);
    step(physics);
    // No contact; 1 ended pair (9).
    expect(physics.ended.count).toBe(1);
    expect(snapshotSize(physics) - empty).toBe(Math.ceil((2 * 56 + 9) / 8) * 8 - 2 * 56);
  });

  it('options are recorded in the snapshot; left-out data is not restored', () => {
    const s = buildInputScene(19, { shapeInputs: false, staticInputs: false });
    for (let t = 0; t < 30; t++) s.tick(t);
    for (const options of [{ shapes: 'dynamic' }, { shapes: 'none' }, { staticBoxes: false }, { shapes: 'none', staticBoxes: false }] as SnapshotOptions[]) {
      const snap = save(s.physics, options);
      expect(snap.length).toBeLessThan(snapshotSize(s.physics));
      const state = fullState(s.physics, s.ids);
      const next: string[] = [];
      for (let t = 30; t < 50; t++) {
        s.tick(t);
        next.push(digest(s.physics, s.ids));
      }
      restoreSnapshot(s.physics, snap);
      expect(fullState(s.physics, s.ids)).toEqual(state);
      for (let t = 30; t < 50; t++) {
        s.tick(t);
        expect(digest(s.physics, s.ids)).toBe(next[t - 30]);
      }
      restoreSnapshot(s.physics, snap);
    }
    const box = s.staticBoxes[0];
    const snap = save(s.physics, { staticBoxes: false });
    setPosition(s.physics, box, [99, 99, 99]);
    restoreSnapshot(s.physics, snap);
    expect(s.physics.components.Position.x[box]).toBe(99);
    expect(() => snapshotSize(s.physics, { shapes: 'some' as 'all' })).toThrow(RangeError);
  });
});
