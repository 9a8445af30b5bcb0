/**
 * The character controller's API and outputs: addCharacter and set(Character) (validated, unknown
 * keys rejected, nothing half-written), the resting ground contact in physics.contacts every tick,
 * the 2D (z = 0) platformer case, a ramp's crest walked over at speed while staying grounded,
 * pushing a dynamic sphere, and rollback: a snapshot (and a join through the entity ids and body
 * manifest) re-simulates characters bit for bit (the state hash covers the Character data).
 */
import { addComponent, addEntity, createWorld, hasComponent, set } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox, addCharacter, addSphere, bodyManifestSize, createPhysics, createRollbackRing, entityIdsSize, hashPhysicsState,
  PhysicsInputError, restoreBodyManifest, restoreEntityIds, restoreRollback, restoreSnapshot, saveBodyManifest, saveEntityIds,
  saveRollback, saveSnapshot, snapshotSize, step,
  type Physics,
} from '../../src/index.js';
import { addRamp, boxDistance, floorWorld, walk } from './scenes.js';

const R = 0.5;

describe('addCharacter and set(Character)', () => {
  it('creates a sphere with Velocity and Character, with the documented defaults', () => {
    const { physics } = floorWorld();
    const a = addCharacter(physics, { position: [1, R, 2], radius: R });
    const { Character: C, Sphere, Velocity, Position } = physics.components;
    for (const comp of [Position, Velocity, Sphere, C]) expect(hasComponent(physics.world, a, comp)).toBe(true);
    expect([C.maxSlope[a], C.stepHeight[a], C.snapDistance[a], C.upX[a], C.upY[a], C.upZ[a], C.gravityScale[a], C.mass[a]])
      .toEqual([Math.PI / 4, R / 2, R / 2, 0, 1, 0, 1, 0]);
    expect([C.grounded[a], C.groundEid[a]]).toEqual([0, 0]);
    const b = addCharacter(physics, { position: [4, R, 0], radius: R, maxSlope: 0.5, stepHeight: 0.1, snapDistance: 0.2, up: [0, 0, 2], gravityScale: 2, mass: 3, group: 2, mask: 5 });
    expect([C.maxSlope[b], C.stepHeight[b], C.snapDistance[b], C.upX[b], C.upY[b], C.upZ[b], C.gravityScale[b], C.mass[b]])
      .toEqual([0.5, 0.1, 0.2, 0, 0, 1, 2, 3]);
    expect([physics.components.CollisionFilter.group[b], physics.components.CollisionFilter.mask[b]]).toEqual([2, 5]);
  });

  it('regression: an up vector with huge components normalises instead of overflowing (no Math.hypot in src)', () => {
    const { physics } = floorWorld();
    const a = addCharacter(physics, { position: [1, R, 2], radius: R, up: [1e308, 1e308, 0] });
    const { Character: C } = physics.components;
    expect(C.upX[a]).toBeCloseTo(Math.SQRT1_2, 15);
    expect(C.upY[a]).toBeCloseTo(Math.SQRT1_2, 15);
    expect(C.upZ[a]).toBe(0);
    const b = addCharacter(physics, { position: [4, R, 2], radius: R, up: [0, 3e-320, 0] });
    expect([C.upX[b], C.upY[b], C.upZ[b]]).toEqual([0, 1, 0]);
  });

  it('rejects bad options naming the field, creating nothing', () => {
    const { physics } = floorWorld();
    const bad: Array<[object, string]> = [
      [{ position: [0, 0, 0], radius: 0 }, 'radius'],
      [{ position: [0, 0, 0], radius: -1 }, 'radius'],
      [{ position: [0, NaN, 0], radius: 1 }, 'position.y'],
      [{ position: [0, 0, 0], radius: 1, maxSlope: 2 }, 'maxSlope'],
      [{ position: [0, 0, 0], radius: 1, stepHeight: -1 }, 'stepHeight'],
      [{ position: [0, 0, 0], radius: 1, snapDistance: Infinity }, 'snapDistance'],
      [{ position: [0, 0, 0], radius: 1, up: [0, 0, 0] }, 'up'],
      [{ position: [0, 0, 0], radius: 1, gravityScale: NaN }, 'gravityScale'],
      [{ position: [0, 0, 0], radius: 1, mass: -2 }, 'mass'],
      [{ position: [0, 0, 0], radius: 1, stepheight: 1 }, 'stepheight'],
    ];
    const before = physics.world;
    const n = addEntity(before);
    for (const [o, field] of bad) {
      let err: unknown;
      try {
        addCharacter(physics, o as never);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(PhysicsInputError);
      expect((err as PhysicsInputError).field).toBe(field);
      expect((err as PhysicsInputError).source).toBe('addCharacter');
    }
    // no entity was created by the failed calls
    expect(addEntity(before)).toBe(n + 1);
  });

  it('set(Character, …) writes validated settings and rejects unknown keys, leaving the values', () => {
    const { physics } = floorWorld();
    const a = addCharacter(physics, { position: [0, R, 0], radius: R });
    const { Character: C } = physics.components;
    addComponent(physics.world, a, set(C, { maxSlope: 0.3, up: { x: 0, y: 2, z: 0 }, mass: Infinity }));
    expect([C.maxSlope[a], C.upY[a], C.mass[a]]).toEqual([0.3, 1, 0]);
    expect(() => addComponent(physics.world, a, set(C, { maxSlope: 0.4, grounded: 1 }))).toThrow(/grounded: is not a setting of Character/);
    expect(() => addComponent(physics.world, a, set(C, { maxSlope: 0.4, stepHeight: -1 }))).toThrow(PhysicsInputError);
    expect(C.maxSlope[a]).toBe(0.3);
    // a Character added by set() to a new sphere gets the defaults for its radius, then the data
    const e = addEntity(physics.world);
    addComponent(physics.world, e, physics.components.Position);
    addComponent(physics.world, e, physics.components.Velocity);
    addComponent(physics.world, e, set(physics.components.Sphere, { radius: 2 }));
    addComponent(physics.world, e, set(C, { gravityScale: 0.5 }));
    expect([C.stepHeight[e], C.snapDistance[e], C.gravityScale[e], C.maxSlope[e]]).toEqual([1, 1, 0.5, Math.PI / 4]);
  });

  it('regression: a bad setting written straight into the Character store throws at step, naming it, before the tick writes', () => {
    // Was: a NaN maxSlope or a zero up silently lost the ground, a NaN gravityScale moved the
    // character to NaN and the next step blamed Position.x.
    const cases: Array<[keyof typeof bad, number]> = [];
    const bad = { maxSlope: [NaN, -0.1, 2], stepHeight: [NaN, -1, Infinity], snapDistance: [NaN, -1], gravityScale: [NaN, Infinity], mass: [-1, NaN, Infinity], upY: [0, 2, NaN] };
    for (const k of Object.keys(bad) as Array<keyof typeof bad>) for (const v of bad[k]) cases.push([k, v]);
    for (const [k, v] of cases) {
      const { physics } = floorWorld();
      const a = addCharacter(physics, { position: [0, R, 0], radius: R });
      physics.components.Velocity.x[a] = 1;
      step(physics);
      const C = physics.components.Character;
      const good = C[k][a];
      const hash = hashPhysicsState(physics);
      C[k][a] = v;
      let err: unknown;
      try {
        step(physics);
      } catch (e) {
        err = e;
      }
      expect(err, `${k} = ${v}`).toBeInstanceOf(PhysicsInputError);
      expect((err as PhysicsInputError).field).toBe(k === 'upY' ? 'Character.up' : `Character.${k}`);
      expect((err as PhysicsInputError).eid).toBe(a);
      C[k][a] = good;
      expect(hashPhysicsState(physics)).toBe(hash); // the tick wrote nothing (the bad value put back)
      step(physics);
    }
  });
});

describe('character outputs', () => {
  it('has its resting ground contact in physics.contacts every tick (a the character, b the ground)', () => {
    const { physics, floor } = floorWorld();
    const a = addCharacter(physics, { position: [0, R, 0], radius: R });
    const { Character: C } = physics.components;
    for (let t = 0; t < 120; t++) {
      walk(physics, a, t < 60 ? 0 : 1, 0);
      step(physics);
      const c = physics.contacts;
      let found = -1;
      for (let i = 0; i < c.count; i++) if (c.a[i] === a && c.b[i] === floor) found = i;
      expect(found).toBeGreaterThanOrEqual(0);
      expect([c.nx[found], c.ny[found], c.nz[found]]).toEqual([0, 1, 0]);
      expect(c.depth[found]).toBe(0);
      expect(C.grounded[a]).toBe(1);
      expect([C.nx[a], C.ny[a], C.nz[a]]).toEqual([0, 1, 0]);
      // sorted by (a, b)
      for (let i = 1; i < c.count; i++) expect(c.a[i] > c.a[i - 1] || (c.a[i] === c.a[i - 1] && c.b[i] > c.b[i - 1])).toBe(true);
    }
    expect(physics.began.count).toBe(0);
  });

  it('works in 2D (z = 0, up +y): a platformer run and jump over a gap onto a ledge', () => {
    const physics = createPhysics(createWorld(), { gravity: [0, -20, 0] });
    addBox(physics, { position: [0, -0.5, 0], halfExtents: [5, 0.5, 0.5] });
    const ledge = addBox(physics, { position: [8, 0, 0], halfExtents: [2, 0.5, 0.5] }); // top y = 0.5, gap 5..6
    const a = addCharacter(physics, { position: [0, R, 0], radius: R });
    const { Position: P, Velocity: V, Character: C } = physics.components;
    let jumped = false;
    for (let t = 0; t < 240; t++) {
      V.x[a] = 4;
      if (C.grounded[a] && P.x[a] > 4 && !jumped) {
        V.y[a] = 8;
        jumped = true;
      }
      step(physics);
      expect(P.z[a]).toBe(0);
      expect(V.z[a]).toBe(0);
      if (P.x[a] > 9.5) break;
    }
    expect(jumped).toBe(true);
    expect(C.groundEid[a]).toBe(ledge);
    expect(P.y[a]).toBeCloseTo(0.5 + R, 12);
  });

  it('walks over a ramp crest at speed staying grounded, on the surface', () => {
    const { physics, floor } = floorWorld();
    const th = (30 * Math.PI) / 180;
    const ramp = addRamp(physics, 0, th, 4); // up to y = 4 tan 30° at x = 4
    const top = 4 * Math.tan(th);
    const plateau = addBox(physics, { position: [9, top / 2, 0], halfExtents: [5, top / 2, 5] }); // from x = 4
    const a = addCharacter(physics, { position: [-1, R, 0], radius: R });
    const { Position: P, Character: C } = physics.components;
    step(physics);
    for (let t = 0; t < 150; t++) {
      walk(physics, a, 6, 0);
      step(physics);
      expect(C.grounded[a]).toBe(1);
      // touching the ground: the nearest of the floor, the ramp and the plateau is one radius away
      const gap = Math.min(...[floor, ramp, plateau].map((b) => boxDistance(physics, b, P.x[a], P.y[a], P.z[a]))) - R;
      expect(Math.abs(gap)).toBeLessThanOrEqual(1e-9 * 20);
    }
    expect(P.y[a]).toBeCloseTo(top + R, 12);
  });

  it('pushes a dynamic sphere it walks into (infinite mass: the sphere takes its speed)', () => {
    const physics = createPhysics(createWorld(), { gravity: [0, -9.81, 0] });
    addBox(physics, { position: [0, -1, 0], halfExtents: [100, 1, 100] });
    const a = addCharacter(physics, { position: [0, R, 0], radius: R });
    const ball = addSphere(physics, { position: [2, 0.25, 0], radius: 0.25, velocity: [0, 0, 0], response: 'slide' });
    const { Position: P, Velocity: V } = physics.components;
    for (let t = 0; t < 120; t++) {
      walk(physics, a, 3, 0);
      step(physics);
      expect(Math.hypot(P.x[a] - P.x[ball], P.y[a] - P.y[ball])).toBeGreaterThanOrEqual(R + 0.25 - 1e-9);
    }
    expect(P.x[ball]).toBeGreaterThan(4);
    expect(V.x[ball]).toBeGreaterThan(0);
  });

  it('regression: a push between masses near Number.MAX_VALUE gives the sphere a finite velocity', () => {
    // A review: the share vrel·mc / (mc + ms) overflowed (1.7e308 against 1.7e308 at 1.5 u/s gave the
    // ball a NaN velocity, and every later step threw on it).
    for (const [mc, ms] of [[1.7e308, 1.7e308], [1e308, 1e308], [1e308, 1], [1e300, 1e300]]) {
      const physics = createPhysics(createWorld());
      addBox(physics, { position: [0, -1, 0], halfExtents: [50, 0.5, 50] });
      const a = addCharacter(physics, { position: [0, 0, 0], radius: 0.5, mass: mc });
      const ball = addSphere(physics, { position: [1.05, 0, 0], radius: 0.5, velocity: [0, 0, 0], response: 'slide', mass: ms });
      const V = physics.components.Velocity;
      for (let t = 0; t < 10; t++) {
        walk(physics, a, 1.5, 0);
        step(physics);
        expect([V.x[ball], V.y[ball], V.z[ball]].every(Number.isFinite)).toBe(true);
      }
      expect(V.x[ball]).toBeGreaterThan(0);
    }
  });
});

/** A scene with characters on stairs, a ramp and a moving platform; `input(t)` drives them. */
function rollbackScene(): { physics: Physics; chars: number[]; drive: (t: number) => void } {
  const { physics } = floorWorld();
  addRamp(physics, 3, 0.4, 5);
  for (let i = 0; i < 4; i++) addBox(physics, { position: [-3 - i, 0.1 * (i + 1), 0], halfExtents: [0.5, 0.1 * (i + 1), 3] });
  const platform = addBox(physics, { position: [0, 0.25, 6], halfExtents: [2, 0.25, 2], velocity: [1, 0, 0] });
  const chars = [
    addCharacter(physics, { position: [0, R, 0], radius: R }),
    addCharacter(physics, { position: [-1, R, 1], radius: R, mass: 2 }),
    addCharacter(physics, { position: [0, 0.5 + R, 6], radius: R }),
  ];
  const drive = (t: number) => {
    const V = physics.components.Velocity;
    V.x[platform] = Math.floor(t / 90) % 2 === 0 ? 1 : -1;
    for (let k = 0; k < chars.length; k++) {
      const a = chars[k];
      V.x[a] = 2 * Math.sin(0.05 * t + k);
      V.z[a] = 1.5 * Math.cos(0.03 * t + 2 * k);
      if (t % 70 === 10 * k && physics.components.Character.grounded[a]) V.y[a] = 4;
    }
  };
  return { physics, chars, drive };
}

describe('character rollback', () => {
  it('a restored snapshot re-simulates characters bit for bit (every tick hash equal)', () => {
    const { physics, drive } = rollbackScene();
    for (let t = 0; t < 60; t++) {
      drive(t);
      step(physics);
    }
    const buf = new Uint8Array(snapshotSize(physics));
    saveSnapshot(physics, buf);
    const hashes: string[] = [];
    for (let t = 60; t < 300; t++) {
      drive(t);
      step(physics);
      hashes.push(hashPhysicsState(physics));
    }
    restoreSnapshot(physics, buf);
    for (let t = 60; t < 300; t++) {
      drive(t);
      step(physics);
      expect(hashPhysicsState(physics)).toBe(hashes[t - 60]);
    }
  });

  it('a late joiner (entity ids, body manifest, snapshot) steps in lockstep with the server', () => {
    const { physics: server, drive, chars } = rollbackScene();
    for (let t = 0; t < 45; t++) {
      drive(t);
      step(server);
    }
    const ids = new Uint8Array(entityIdsSize(server.world));
    saveEntityIds(server.world, ids);
    const manifest = new Uint8Array(bodyManifestSize(server));
    saveBodyManifest(server, manifest);
    const snap = new Uint8Array(snapshotSize(server));
    saveSnapshot(server, snap);
    const world = createWorld();
    restoreEntityIds(world, ids);
    const client = createPhysics(world, { gravity: [0, -9.81, 0] });
    restoreBodyManifest(client, manifest);
    restoreSnapshot(client, snap);
    expect(hashPhysicsState(client)).toBe(hashPhysicsState(server));
    // the client's input drives its own copies of the same entity ids
    const V = client.components.Velocity;
    for (let t = 45; t < 200; t++) {
      drive(t);
      for (let e = 1; e <= chars[chars.length - 1]; e++) {
        V.x[e] = server.components.Velocity.x[e];
        V.y[e] = server.components.Velocity.y[e];
        V.z[e] = server.components.Velocity.z[e];
      }
      step(server);
      step(client);
      expect(hashPhysicsState(client)).toBe(hashPhysicsState(server));
    }
  });

  it('a rollback ring re-simulates characters after mispredicted inputs, tick for tick like a straight run', () => {
    // the straight run: true inputs
    const straight = rollbackScene();
    const truth: string[] = [];
    for (let t = 0; t < 240; t++) {
      straight.drive(t);
      step(straight.physics);
      truth.push(hashPhysicsState(straight.physics));
    }
    // the predicting run: every 20 ticks it has run 6 ticks on a wrong input, then rolls back
    const { physics, drive, chars } = rollbackScene();
    const ring = createRollbackRing(physics, 16);
    saveRollback(physics, ring);
    for (let t = 0; t < 240; t++) {
      if (t % 20 === 10) {
        const from = physics.tick;
        for (let k = 0; k < 6; k++) {
          drive(t + k);
          for (const a of chars) physics.components.Velocity.x[a] *= -1; // the misprediction
          step(physics);
          saveRollback(physics, ring);
        }
        restoreRollback(physics, ring, from);
      }
      drive(t);
      step(physics);
      saveRollback(physics, ring);
      expect(hashPhysicsState(physics)).toBe(truth[t]);
    }
  });

  it('the state hash covers the Character data', () => {
    const { physics, chars } = rollbackScene();
    step(physics);
    const h = hashPhysicsState(physics);
    physics.components.Character.stepHeight[chars[0]] += 1e-9;
    expect(hashPhysicsState(physics)).not.toBe(h);
    physics.components.Character.stepHeight[chars[0]] -= 1e-9;
    physics.components.Character.grounded[chars[1]] ^= 1;
    expect(hashPhysicsState(physics)).not.toBe(h);
  });
});
