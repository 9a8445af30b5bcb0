/**
 * The fields of friction, damping and gravity scale in snapshots (format version 3), the body
 * manifest (version 3: the Material bit) and the state hash: a restore gives the run it was saved
 * from, a late join rebuilds Material, the hash sees each field, and a world that never sets them
 * hashes as before they existed.
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { expectRestoreRejected } from '../support/snapshotEdits.js';
import {
  addBox, addSphere, bodyManifestSize, createPhysics, entityIdsSize, hashPhysicsState, restoreBodyManifest, restoreEntityIds,
  restoreSnapshot, saveBodyManifest, saveEntityIds, saveSnapshot, snapshotSize, step, type Physics,
} from '../../src/index.js';

const OPTIONS = { gravity: [0, -9.81, 0] as [number, number, number] };

function scene(physics: Physics): number[] {
  addBox(physics, { position: [0, -1, 0], halfExtents: [10, 1, 10], rotation: [0, 0, Math.sin(-0.2), Math.cos(-0.2)], friction: 0.6 });
  const ids: number[] = [];
  for (let i = 0; i < 12; i++) {
    ids.push(addSphere(physics, {
      position: [(i % 4) - 1.5, 1 + Math.floor(i / 4), 0], velocity: [i % 3, 0, 0], radius: 0.4, response: i % 2 === 0 ? 'slide' : 'bounce',
      restitution: i % 2 === 0 ? 0 : 0.5, friction: 0.2 + 0.05 * i, damping: 0.1 * (i % 3), gravityScale: i === 5 ? -0.5 : i === 7 ? 0 : 1,
    }));
  }
  return ids;
}

describe('friction, damping and gravity scale persist', () => {
  it('save at tick 60, run to 120; change every field, restore, run again: the same hash', () => {
    const physics = createPhysics(createWorld(), OPTIONS);
    const ids = scene(physics);
    for (let t = 0; t < 60; t++) step(physics);
    const buf = new ArrayBuffer(snapshotSize(physics));
    saveSnapshot(physics, buf);
    for (let t = 0; t < 60; t++) step(physics);
    const expected = hashPhysicsState(physics);
    const { Response: R, Material: M } = physics.components;
    for (const e of ids) {
      R.damping[e] = 7;
      R.gravityScale[e] = 3;
      M.friction[e] = 0;
    }
    restoreSnapshot(physics, buf);
    for (let t = 0; t < 60; t++) step(physics);
    expect(hashPhysicsState(physics)).toBe(expected);
  });

  it('a late join (entity ids, body manifest, snapshot) rebuilds Material and the fields', () => {
    const physics = createPhysics(createWorld(), OPTIONS);
    scene(physics);
    for (let t = 0; t < 30; t++) step(physics);
    const idBytes = new Uint8Array(entityIdsSize(physics.world));
    saveEntityIds(physics.world, idBytes);
    const manifest = new Uint8Array(bodyManifestSize(physics));
    saveBodyManifest(physics, manifest);
    const snap = new ArrayBuffer(snapshotSize(physics));
    saveSnapshot(physics, snap);
    const world = createWorld();
    restoreEntityIds(world, idBytes);
    const joined = createPhysics(world, OPTIONS);
    restoreBodyManifest(joined, manifest);
    restoreSnapshot(joined, snap);
    expect(hashPhysicsState(joined)).toBe(hashPhysicsState(physics));
    for (let t = 0; t < 30; t++) {
      step(physics);
      step(joined);
    }
    expect(hashPhysicsState(joined)).toBe(hashPhysicsState(physics));
  });

  it('the hash sees friction, damping and gravity scale', () => {
    const physics = createPhysics(createWorld(), OPTIONS);
    const ids = scene(physics);
    step(physics);
    const h = hashPhysicsState(physics);
    const { Response: R, Material: M } = physics.components;
    for (const [store, v] of [[M.friction, 0.33], [R.damping, 0.5], [R.gravityScale, 2]] as const) {
      const old = store[ids[0]];
      store[ids[0]] = v;
      expect(hashPhysicsState(physics)).not.toBe(h);
      store[ids[0]] = old;
      expect(hashPhysicsState(physics)).toBe(h);
    }
  });

  it('a version-2 snapshot (before these fields) is rejected naming header.version, with nothing changed', () => {
    const physics = createPhysics(createWorld(), OPTIONS);
    scene(physics);
    step(physics);
    const buf = new ArrayBuffer(snapshotSize(physics));
    saveSnapshot(physics, buf);
    new Uint8Array(buf)[7] = 2; // the top byte of header word 1: the format version
    const err = expectRestoreRejected(physics, buf, 'header.version');
    expect(String(err)).toMatch(/version 2 is not supported \(expected 4 to 6\)/);
  });
});
