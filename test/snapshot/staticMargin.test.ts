/**
 * The static grid's margin across a snapshot (format version 6, src/snapshot/format.ts "The static
 * margin"). The broadphase keeps the margin it picked at an earlier tick until the size statistics
 * drift (src/step/findPairs.ts `updatePolicy`); before version 6 a restore re-picked it from the
 * sizes of the restore's tick, which gave another static-grid layout, another order of static
 * candidates, and at time 0 other last bits. Named regressions, from two shrunk fuzz scenarios:
 * - late join: scene A joined at tick 2 diverged at the first tick after the join (margin 2.5 on
 *   the server, 2.81 re-picked on the replica); scene B, joined at tick 3, at the third (2.985 kept,
 *   3.064 re-picked);
 * - rollback into the same instance, after the margin changed since the save: the re-simulation
 *   parted from the original run at the third tick;
 * - a static box written directly after the restore (the rollback's own input, or before the save):
 *   the original run noticed it at the next step (`checkStatic`) and picked the margin again; so must
 *   the re-simulation and the replica.
 */
import { createWorld, hasComponent } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, bodyManifestSize, createPhysics, entityIdsSize, hashPhysicsState, removeBody, restoreBodyManifest,
  restoreEntityIds, restoreSnapshot, saveBodyManifest, saveEntityIds, saveSnapshot, setRadius, snapshotSize, step, type Physics,
  type PhysicsOptions,
} from '../../src/index.js';
import { internalsOf } from '../../src/physics/internal.js';

/** The body at index k (mod count) of the ascending body ids: the same entity on both sides. */
function pick(p: Physics, k: number): number {
  const { flags, maxEid } = internalsOf(p);
  const ids: number[] = [];
  for (let e = 1; e <= maxEid; e++) if (flags[e] !== 0) ids.push(e);
  return ids[k % ids.length];
}

/** A sphere spawned at the centre of body `k` (as the fuzz scenarios spawn them). */
function spawnAt(p: Physics, k: number, o: Omit<Parameters<typeof addSphere>[1], 'position'>): void {
  const e = pick(p, k);
  const P = p.components.Position;
  addSphere(p, { ...o, position: { x: P.x[e], y: P.y[e], z: P.z[e] } });
}

const OPTIONS_A: PhysicsOptions = { capacity: 8 };
/** Scene A at its join (tick 2); `afterJoin` is the first tick's input. */
function sceneA(): Physics {
  const p = createPhysics(createWorld(), OPTIONS_A);
  addBox(p, { position: { x: 0, y: -2.5, z: 0 }, halfExtents: { x: 4.5, y: 1, z: 4.5 } });
  addBox(p, { position: { x: -2.5, y: 0, z: 0 }, halfExtents: { x: 1, y: 4.5, z: 4.5 } });
  addSphere(p, { position: { x: -0.523943328531459, y: 1.4846206298097968, z: 0 }, velocity: { x: 0, y: 49.56899140030146, z: 0 }, radius: 2, response: 'bounce', mass: 5e-324, damping: 0.03512755245901644 });
  addSphere(p, { position: { x: -0.45917668542824686, y: 1.4805094201583415, z: 0 }, velocity: { x: 2.8986242739483714, y: -4.164757123216987, z: 0 }, radius: 0.001, response: 'stop', mass: 8.673617379884035e-19, gravityScale: 0 });
  addSphere(p, { position: { x: -0.4680976280942559, y: -1.376337246503681, z: 0 }, velocity: { x: -30.99056306295097, y: 0, z: 0 }, radius: 0.35607915893197056 });
  removeBody(p, pick(p, 996664));
  addSphere(p, { position: { x: 1.2813083063811064, y: 0.30034707044251263, z: 0 }, velocity: { x: 0, y: -1.8176332395523787, z: 0 }, radius: 0.5, response: 'stop', restitution: 0, mass: 1e+300, friction: 1 });
  addBox(p, { position: { x: -0.32868246850557625, y: -0.8805246599949896, z: 0 }, halfExtents: { x: 2.3275406922213735, y: 0.5295510603114962, z: 3 } });
  addSphere(p, { position: { x: -0.22961392253637314, y: 0.767677893396467, z: 0 }, velocity: { x: -23.641253784298897, y: 0, z: 0 }, radius: 1.173513786122203 });
  step(p);
  addBox(p, { position: { x: -0.5930490621831268, y: 1.23093963554129, z: 0 }, halfExtents: { x: 2.621654059458524, y: 0.6372008768841624, z: 3 } });
  spawnAt(p, 21264, { velocity: { x: 0, y: 0, z: 0 }, radius: 0.8388185570016504, response: 'slide', restitution: 0 });
  removeBody(p, pick(p, 397982));
  addSphere(p, { position: { x: 1.2558837609831244, y: 0.0261953619774431, z: 0 }, velocity: { x: 0, y: 0, z: 0 }, radius: 2, response: 'slide', mass: 1e-10 });
  step(p);
  return p;
}
function afterJoinA(p: Physics, tick: number): void {
  if (tick !== 0) return;
  addSphere(p, { position: { x: 1.069041621638462, y: -1.3142920557875186, z: 0 }, velocity: { x: 11.404912797734141, y: -29.838040312752128, z: 0 }, radius: 2, response: 'stop', restitution: 0.5, mass: 3 });
}

const OPTIONS_B: PhysicsOptions = { capacity: 64 };
/** Scene B at its join (tick 3); no inputs after it. */
function sceneB(): Physics {
  const p = createPhysics(createWorld(), OPTIONS_B);
  addBox(p, { position: { x: 0, y: -4, z: 0 }, halfExtents: { x: 6, y: 1, z: 6 } });
  addBox(p, { position: { x: -4, y: 0, z: 0 }, halfExtents: { x: 1, y: 6, z: 6 } });
  addSphere(p, { position: { x: 2.579005428124219, y: -1.255812466610223, z: 0 }, velocity: { x: 0, y: 1.6991612780839205, z: 0 }, radius: 0.5, response: 'bounce', restitution: 0.5 });
  addSphere(p, { position: { x: -2.1825085217133164, y: 0.2792619410902262, z: 0 }, velocity: { x: 0, y: 3.7028716201893985, z: 0 }, radius: 0.001, response: 'bounce', restitution: 0.5, friction: 0.2 });
  addSphere(p, { position: { x: -0.6895300545729697, y: -0.11335208220407367, z: 0 }, velocity: { x: -22.384913759306073, y: -46.57530681230128, z: 0 }, radius: 2, response: 'slide', mass: 1152921504606847000 });
  spawnAt(p, 666566, { velocity: { x: 0, y: 0, z: 0 }, radius: 0.2394307842478156, response: 'bounce', mass: 1e-10, restitution: 1 });
  addSphere(p, { position: { x: -1.1307493401691318, y: -0.3194258655421436, z: 0 }, velocity: { x: 0, y: 0, z: 0 }, radius: 1.0072524509392677, response: 'slide', restitution: 1, mass: 1152921504606847000 });
  addBox(p, { position: { x: -0.03987693367525935, y: -0.1818225779570639, z: 0 }, halfExtents: { x: 1.5164346773177384, y: 0.8988217301666737, z: 3 } });
  removeBody(p, pick(p, 289191));
  addSphere(p, { position: { x: -1.842194700613618, y: 1.6573353675194085, z: 0 }, velocity: { x: 14.544883277267218, y: 17.337628295645118, z: 0 }, radius: 0.5033063457347453 });
  addBox(p, { position: { x: 1.480554054491222, y: -1.9195140330120921, z: 0 }, halfExtents: { x: 2.718776303064078, y: 0.32301138807088137, z: 3 }, friction: 0.2 });
  spawnAt(p, 966635, { velocity: { x: 0, y: 0, z: 0 }, radius: 0.36436431594192986, response: 'bounce', mass: 1e-300 });
  step(p);
  addSphere(p, { position: { x: 1.8845727425068617, y: -1.7854874432086945, z: 0 }, velocity: { x: 0, y: 0, z: 0 }, radius: 1.0960630242712794, response: 'bounce', mass: 1.7976931348623157e+308, damping: 2.766243207268417 });
  step(p);
  step(p);
  return p;
}

/** What a server sends a joining client (as entityIds.test.ts): entity ids, bodies and snapshot. */
function join(server: Physics, options: PhysicsOptions): Physics {
  const pad = (n: number) => Math.ceil(n / 8) * 8;
  const nIds = pad(entityIdsSize(server.world)), nBodies = pad(bodyManifestSize(server));
  const bytes = new Uint8Array(nIds + nBodies + snapshotSize(server));
  saveEntityIds(server.world, bytes, 0);
  saveBodyManifest(server, bytes, nIds);
  saveSnapshot(server, bytes, nIds + nBodies);
  const world = createWorld();
  restoreEntityIds(world, bytes, 0);
  const replica = createPhysics(world, options);
  restoreBodyManifest(replica, bytes, nIds);
  restoreSnapshot(replica, bytes, nIds + nBodies);
  return replica;
}

function snapshotBytes(p: Physics): Uint8Array {
  const out = new Uint8Array(snapshotSize(p));
  saveSnapshot(p, out);
  return out;
}

/** Each body's id, then −1 or its Response data (not in the state hash). */
function responses(p: Physics): number[] {
  const { Response } = p.components;
  const out: number[] = [];
  const { flags, maxEid } = internalsOf(p);
  for (let e = 1; e <= maxEid; e++) {
    if (flags[e] === 0) continue;
    if (!hasComponent(p.world, e, Response)) out.push(e, -1);
    else out.push(e, Response.mode[e], Response.restitution[e], Response.mass[e], Response.damping[e], Response.gravityScale[e]);
  }
  return out;
}

const margin = (p: Physics): number => internalsOf(p).broadphase.staticGrid.margin;

/** Hash, Response data and snapshot bytes (which hold the margin policy) of the replica are the server's. */
function expectSame(replica: Physics, server: Physics, tick: number): void {
  expect({ tick, hash: hashPhysicsState(replica) }).toEqual({ tick, hash: hashPhysicsState(server) });
  expect(responses(replica)).toEqual(responses(server));
  expect(snapshotBytes(replica)).toEqual(snapshotBytes(server));
}

/** Steps `p` `ticks` times with `input(p, t)` before each; the hash and margin after each. */
function run(p: Physics, ticks: number, input?: (p: Physics, t: number) => void): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  for (let t = 0; t < ticks; t++) {
    input?.(p, t);
    step(p);
    out.push([hashPhysicsState(p), margin(p)]);
  }
  return out;
}

describe('static margin: late join', () => {
  it.each([
    ['A (diverged at tick 1 after the join: margins 2.5 and 2.81)', sceneA, OPTIONS_A, afterJoinA],
    ['B (diverged at tick 3 after the join: margins 2.985 and 3.064)', sceneB, OPTIONS_B, undefined],
  ] as const)('regression: scene %s: the replica keeps the server\'s hash, Response data and snapshot bytes', (_name, scene, options, input) => {
    const server = scene();
    const replica = join(server, options);
    expectSame(replica, server, 0);
    for (let t = 0; t < 6; t++) {
      input?.(server, t);
      input?.(replica, t);
      step(server);
      step(replica);
      expectSame(replica, server, t + 1);
    }
    expect(margin(replica)).toBe(margin(server));
  });

  it('a static box written directly before the save (not yet noticed) makes the replica pick the margin again, as the server does', () => {
    const server = sceneB();
    const before = margin(server);
    server.components.Position.y[pick(server, 0)] = -4 - 1e-9; // no setPosition: checkStatic notices it at the next step
    const replica = join(server, OPTIONS_B);
    expectSame(replica, server, 0);
    step(server);
    step(replica);
    expect(margin(server)).not.toBe(before); // re-picked: 2.985 → 3.064
    for (let t = 1; t < 6; t++) {
      expectSame(replica, server, t);
      step(server);
      step(replica);
    }
    expect(margin(replica)).toBe(margin(server));
  });
});

describe('static margin: rollback into the same instance', () => {
  /** At tick 2 the first sphere grows to radius 6: the margin's share drifts and it is picked again. */
  const grow = (p: Physics, t: number): void => {
    if (t !== 2) return;
    let e = 1;
    while (!hasComponent(p.world, e, p.components.Sphere)) e++;
    setRadius(p, e, 6);
  };

  it('regression: restoring tick k after the margin changed and re-stepping the same inputs gives the original hashes', () => {
    const p = sceneB();
    const saved = snapshotBytes(p);
    const atSave = margin(p);
    const original = run(p, 8, grow);
    expect(margin(p)).not.toBe(atSave); // the margin changed since the save
    restoreSnapshot(p, saved);
    const restored = margin(p);
    expect(run(p, 8, grow)).toEqual(original);
    expect(restored).toBe(atSave);
  });

  it('a static box written directly after the restore is noticed as in the original run (the margin picked again)', () => {
    const p = sceneB();
    const saved = snapshotBytes(p);
    const atSave = margin(p);
    const nudge = (q: Physics, t: number): void => {
      if (t === 0) q.components.Position.y[pick(q, 0)] = -4 - 1e-9;
    };
    const original = run(p, 8, nudge);
    expect(original[0][1]).not.toBe(atSave); // the original run re-picked at its first tick
    restoreSnapshot(p, saved);
    expect(run(p, 8, nudge)).toEqual(original);
  });
});
