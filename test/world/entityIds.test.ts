/**
 * Late join (src/world/entityIds.ts): the entity-id manifest recreates the same alive ids and the
 * same recycle order in a fresh world; the body manifest recreates the same bodies; with a snapshot
 * on top, the joined replica has the server's hash and keeps it under the same inputs (including
 * spawns and despawns, which exercise the recycled ids). Properties over random add/remove
 * histories, then sizes, buffers and every rejection.
 */
import { addComponent, addEntity, createWorld, entityExists, hasComponent, removeEntity, type World } from 'bitecs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, bodyManifestSize, createPhysics, entityIdsSize, EntityManifestError, hashPhysicsState,
  removeBody, restoreBodyManifest, restoreEntityIds, restoreSnapshot, saveBodyManifest, saveEntityIds,
  saveSnapshot, setVelocity, snapshotSize, step, type Physics,
} from '../../src/index.js';

/** One step of a world's history before the join. */
type HistoryOp =
  | { op: 'body'; kind: number; x: number; y: number; r: number; vx: number; vy: number }
  | { op: 'plain' }
  | { op: 'remove'; pick: number }
  | { op: 'step' };

/** One input of a tick after the join, applied identically to the server and the replica. */
type InputOp =
  | { op: 'velocity'; pick: number; vx: number; vy: number }
  | { op: 'spawn'; x: number; y: number; r: number }
  | { op: 'despawn'; pick: number };

const coord = fc.double({ min: -6, max: 6, noNaN: true });
const speed = fc.double({ min: -8, max: 8, noNaN: true });
const historyOp: fc.Arbitrary<HistoryOp> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('body' as const), kind: fc.nat(15), x: coord, y: coord, r: fc.double({ min: 0.2, max: 1.2, noNaN: true }), vx: speed, vy: speed }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('plain' as const) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('remove' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('step' as const) }) },
);
const inputOp: fc.Arbitrary<InputOp> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('velocity' as const), pick: fc.nat(), vx: speed, vy: speed }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('spawn' as const), x: coord, y: coord, r: fc.double({ min: 0.2, max: 1, noNaN: true }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('despawn' as const), pick: fc.nat() }) },
);

/** Alive entity ids 1 … maxId + extra, ascending (the public view of the entity index). */
function aliveIds(world: World, upTo: number): number[] {
  const out: number[] = [];
  for (let e = 1; e <= upTo; e++) if (entityExists(world, e)) out.push(e);
  return out;
}

/**
 * Applies one history step. kind bits: 1 box (else sphere), 2 Velocity, 4 Sensor, 8 CollisionFilter.
 * A plain entity has no component; `remove` removes any alive entity (body or not).
 */
function applyHistory(physics: Physics, op: HistoryOp, live: number[]): void {
  if (op.op === 'step') step(physics);
  else if (op.op === 'plain') live.push(addEntity(physics.world));
  else if (op.op === 'remove') {
    if (live.length === 0) return;
    const [e] = live.splice(op.pick % live.length, 1);
    removeEntity(physics.world, e);
  } else {
    const velocity = (op.kind & 2) !== 0 ? { x: op.vx, y: op.vy, z: 0 } : undefined;
    const filter = (op.kind & 8) !== 0 ? { group: 1 | (op.kind & 4), mask: 0xfffffffb | (op.kind & 4) } : {};
    const base = { position: { x: op.x, y: op.y, z: 0 }, velocity, sensor: (op.kind & 4) !== 0, ...filter };
    live.push((op.kind & 1) !== 0
      ? addBox(physics, { ...base, halfExtents: { x: op.r, y: op.r * 0.5, z: 1 } })
      : addSphere(physics, { ...base, radius: op.r }));
  }
}

/** The bodies of `physics` (spheres and boxes), ascending id. */
function bodyIds(physics: Physics): number[] {
  const buf = new Uint8Array(bodyManifestSize(physics));
  saveBodyManifest(physics, buf);
  const v = new DataView(buf.buffer);
  return Array.from({ length: v.getUint32(4, true) }, (_, i) => v.getUint32(8 + 4 * i, true) & 0xffffff);
}

function applyInput(physics: Physics, op: InputOp): number {
  if (op.op === 'spawn') return addSphere(physics, { position: { x: op.x, y: op.y, z: 0 }, radius: op.r, velocity: { x: 0, y: 0, z: 0 } });
  const ids = bodyIds(physics);
  if (ids.length === 0) return -1;
  const e = ids[op.pick % ids.length];
  if (op.op === 'despawn') removeBody(physics, e);
  else setVelocity(physics, e, { x: op.vx, y: op.vy, z: 0 });
  return e;
}

/** What a server sends a joining client: entity ids, bodies and snapshot, in one buffer. */
function joinPayload(physics: Physics): { bytes: Uint8Array; ids: number; bodies: number } {
  const ids = entityIdsSize(physics.world);
  const bodies = bodyManifestSize(physics);
  const snap = snapshotSize(physics);
  const pad = (n: number) => Math.ceil(n / 8) * 8;
  const bytes = new Uint8Array(pad(ids) + pad(bodies) + snap);
  expect(saveEntityIds(physics.world, bytes, 0)).toBe(ids);
  expect(saveBodyManifest(physics, bytes, pad(ids))).toBe(bodies);
  expect(saveSnapshot(physics, bytes, pad(ids) + pad(bodies))).toBe(snap);
  return { bytes, ids: pad(ids), bodies: pad(bodies) };
}

function join(payload: { bytes: Uint8Array; ids: number; bodies: number }): Physics {
  const world = createWorld();
  restoreEntityIds(world, payload.bytes, 0);
  const physics = createPhysics(world, { capacity: 8 });
  restoreBodyManifest(physics, payload.bytes, payload.ids);
  restoreSnapshot(physics, payload.bytes, payload.ids + payload.bodies);
  return physics;
}

function buildHistory(history: HistoryOp[]): { physics: Physics; live: number[] } {
  const physics = createPhysics(createWorld(), { capacity: 8 });
  const live: number[] = [];
  for (const op of history) applyHistory(physics, op, live);
  step(physics); // a join happens between ticks, after at least one
  return { physics, live };
}

describe('entity ids and body manifest: properties', () => {
  it('a fresh world gets the same alive ids, and the next N addEntity calls return the same ids', () => {
    fc.assert(
      fc.property(fc.array(historyOp, { maxLength: 80 }), fc.integer({ min: 1, max: 40 }), (history, n) => {
        const { physics } = buildHistory(history);
        const buf = new Uint8Array(entityIdsSize(physics.world));
        expect(saveEntityIds(physics.world, buf)).toBe(buf.length);
        const replica = createWorld();
        expect(restoreEntityIds(replica, buf)).toBe(buf.length);
        const top = buf.length === 0 ? 0 : new DataView(buf.buffer).getUint32(4, true);
        expect(aliveIds(replica, top + 5)).toEqual(aliveIds(physics.world, top + 5));
        const next = (w: World) => Array.from({ length: n }, () => addEntity(w));
        expect(next(replica)).toEqual(next(physics.world));
      }),
      { numRuns: 150 },
    );
  });

  it('a joined replica has the same bodies and hash, and keeps the same hash under the same inputs', () => {
    fc.assert(
      fc.property(fc.array(historyOp, { minLength: 10, maxLength: 60 }), fc.array(fc.array(inputOp, { maxLength: 4 }), { minLength: 1, maxLength: 25 }), (history, ticks) => {
        const { physics: server } = buildHistory(history);
        const replica = join(joinPayload(server));
        expect(bodyIds(replica)).toEqual(bodyIds(server));
        expect(hashPhysicsState(replica)).toBe(hashPhysicsState(server));
        for (const inputs of ticks) {
          for (const op of inputs) expect(applyInput(replica, op)).toBe(applyInput(server, op));
          step(server);
          step(replica);
          expect(hashPhysicsState(replica)).toBe(hashPhysicsState(server));
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('entity ids and body manifest: sizes, buffers, rejections', () => {
  /** Ids 1..6 with 5, 2 removed (in that order: 2 is recycled first) and three bodies. */
  function small(): Physics {
    const physics = createPhysics(createWorld());
    addSphere(physics, { position: [0, 0, 0], radius: 1 });                                            // 1
    addEntity(physics.world);                                                                           // 2
    addBox(physics, { position: [3, 0, 0], halfExtents: [1, 1, 1], velocity: [1, 0, 0], sensor: true }); // 3
    addSphere(physics, { position: [6, 0, 0], radius: 1, velocity: [0, 1, 0], group: 2, mask: 3 });    // 4
    addEntity(physics.world);                                                                           // 5
    addEntity(physics.world);                                                                           // 6
    removeEntity(physics.world, 5);
    removeEntity(physics.world, 2);
    return physics;
  }

  it('sizes: 16 + 4 per removed id; 8 + 4 per body; the recycle order is recorded', () => {
    const physics = small();
    expect(entityIdsSize(physics.world)).toBe(16 + 4 * 2);
    expect(bodyManifestSize(physics)).toBe(8 + 4 * 3);
    const buf = new Uint8Array(24);
    saveEntityIds(physics.world, buf);
    const v = new DataView(buf.buffer);
    expect([v.getUint32(4, true), v.getUint32(8, true), v.getUint32(12, true), v.getUint32(16, true), v.getUint32(20, true)]).toEqual([6, 4, 2, 2, 5]);
    const w = createWorld();
    restoreEntityIds(w, buf);
    expect([addEntity(w), addEntity(w), addEntity(w)]).toEqual([2, 5, 7]);
  });

  it('reads and writes at an offset, into an ArrayBuffer or a Uint8Array view; throws RangeError when too small', () => {
    const physics = small();
    const ab = new ArrayBuffer(64);
    const view = new Uint8Array(ab, 8, 48);
    expect(saveEntityIds(physics.world, view, 3)).toBe(24);
    expect(saveBodyManifest(physics, ab, 40)).toBe(20);
    const w = createWorld();
    expect(restoreEntityIds(w, new Uint8Array(ab), 11)).toBe(24);
    const replica = createPhysics(w);
    expect(restoreBodyManifest(replica, ab, 40)).toBe(20);
    expect(bodyIds(replica)).toEqual([1, 3, 4]);
    expect(() => saveEntityIds(physics.world, new Uint8Array(23))).toThrow(RangeError);
    expect(() => saveBodyManifest(physics, new Uint8Array(64), 50)).toThrow(RangeError);
  });

  it('restores kinds: Velocity, Sensor and CollisionFilter presence; a snapshot then restores the data', () => {
    const physics = small();
    step(physics);
    const replica = join(joinPayload(physics));
    const { Velocity, Sensor, CollisionFilter, Box, Sphere } = replica.components;
    const has = (c: object, e: number) => hasComponent(replica.world, e, c);
    expect([has(Sphere, 1), has(Box, 3), has(Sensor, 3), has(Velocity, 3), has(CollisionFilter, 4), has(Velocity, 1)]).toEqual([true, true, true, true, true, false]);
    expect(CollisionFilter.group[4]).toBe(2);
    expect(hashPhysicsState(replica)).toBe(hashPhysicsState(physics));
  });

  it('rejects a world that is not fresh, a bad tag, corrupt counts and ids, before changing anything', () => {
    const physics = small();
    const ids = new Uint8Array(entityIdsSize(physics.world));
    saveEntityIds(physics.world, ids);
    const used = createWorld();
    removeEntity(used, addEntity(used));
    expect(() => restoreEntityIds(used, ids)).toThrow(/must be fresh/);
    expect(() => restoreEntityIds(createWorld(), new Uint8Array(8))).toThrow(EntityManifestError);
    expect(() => restoreEntityIds(createWorld(), new Uint8Array(24))).toThrow(/bad format tag/);
    const corrupt = (at: number, value: number) => {
      const b = ids.slice();
      new DataView(b.buffer).setUint32(at, value, true);
      const w = createWorld();
      expect(() => restoreEntityIds(w, b)).toThrow(/corrupt|buffer has/);
      expect(aliveIds(w, 10)).toEqual([]);
    };
    corrupt(8, 5); // alive + free != max
    corrupt(16, 9); // removed id beyond the highest
    corrupt(20, 2); // removed id repeated
    corrupt(12, 3); // more removed ids than the buffer holds (and inconsistent)
  });

  it('rejects a body manifest for missing entities, entities already bodies, or corrupt records', () => {
    const physics = small();
    const bodies = new Uint8Array(bodyManifestSize(physics));
    saveBodyManifest(physics, bodies);
    expect(() => restoreBodyManifest(createPhysics(createWorld()), bodies)).toThrow(/entity 1 does not exist/);
    const w = createWorld();
    for (let i = 0; i < 6; i++) addEntity(w);
    const target = createPhysics(w);
    addComponent(w, 3, target.components.Position);
    addComponent(w, 3, target.components.Sphere);
    expect(() => restoreBodyManifest(target, bodies)).toThrow(/entity 3 is already a body/);
    expect(bodyIds(target)).toEqual([3]);
    const b = bodies.slice();
    new DataView(b.buffer).setUint32(12, 1 | (1 << 24), true); // ids not ascending
    expect(() => restoreBodyManifest(createPhysics(createWorld()), b)).toThrow(/corrupt/);
    expect(() => restoreBodyManifest(target, new Uint8Array(8))).toThrow(/bad format tag/);
  });
});
