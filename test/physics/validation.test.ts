/**
 * Bad input: PhysicsInputError naming the entity and the field, from the helpers at set time and from
 * `step` with `validate` on; never a hang (also with `validate` off and huge coordinates).
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox,
  addSphere,
  createPhysics,
  markStaticDirty,
  setHalfExtents,
  setPosition,
  setRadius,
  setRotation,
  setVelocity,
  step,
  type Physics,
} from '../../src/index.js';
import { bruteForceContacts } from '../oracle/bruteForce.js';
import { addRawBody } from '../support/bodies.js';
import { expectError } from '../support/inputError.js';
import { readContacts } from '../support/harness.js';

function setup(options = {}) {
  const world = createWorld();
  return { world, physics: createPhysics(world, { dt: 1 / 60, ...options }) };
}

describe('helpers validate at set time', () => {
  it('addSphere / addBox: non-finite position or velocity, negative or non-finite sizes, bad rotations', () => {
    const { physics } = setup();
    const bad = [NaN, Infinity, -Infinity];
    for (const v of bad) {
      expectError(() => addSphere(physics, { position: [0, v, 0], radius: 1 }), -1, 'addSphere: position.y', /finite/);
      expectError(() => addSphere(physics, { position: { x: 0, y: 0, z: v }, velocity: [0, 0, 0], radius: 1 }), -1, 'addSphere: position.z');
      expectError(() => addSphere(physics, { position: [0, 0, 0], velocity: [v, 0, 0], radius: 1 }), -1, 'addSphere: velocity.x');
      expectError(() => addBox(physics, { position: [0, 0, 0], velocity: [0, 0, v], halfExtents: [1, 1, 1] }), -1, 'addBox: velocity.z');
      expectError(() => addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1], rotation: [0, 0, v, 1] }), -1, 'addBox: rotation.z');
    }
    expectError(() => addSphere(physics, { position: [0, 0, 0], radius: -1 }), -1, 'addSphere: radius', />= 0/);
    expectError(() => addSphere(physics, { position: [0, 0, 0], radius: NaN }), -1, 'addSphere: radius');
    expectError(() => addSphere(physics, { position: [0, 0, 0], radius: Infinity }), -1, 'addSphere: radius');
    expectError(() => addBox(physics, { position: [0, 0, 0], halfExtents: [1, -0.5, 1] }), -1, 'addBox: halfExtents.y', />= 0/);
    expectError(() => addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, NaN] }), -1, 'addBox: halfExtents.z');
    expectError(() => addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1], rotation: [0, 0, 0, 0] }), -1, 'addBox: rotation', /length 0/);
    expectError(() => addSphere(physics, { position: undefined as never, radius: 1 }), -1, 'addSphere: position');
    // Nothing was created by the failed calls.
    expect(addSphere(physics, { position: [0, 0, 0], radius: 0 })).toBe(1);
  });

  it('regression: addSphere / addBox reject an unknown option key, naming it and the helper; nothing is created', () => {
    const { physics } = setup();
    // Before: the typo was ignored and made a kinematic sphere (no Response).
    const typo = { position: [0, 0, 0], radius: 0.5, velocity: [1, 0, 0], reponse: 'slide' } as unknown as Parameters<typeof addSphere>[1];
    const e = expectError(() => addSphere(physics, typo), -1, 'addSphere: reponse', /is not an option of addSphere \(options: position, velocity, sensor, group, mask, friction, radius, response, restitution, mass, damping, gravityScale\)/);
    expect(e.message).toContain('reponse');
    // Before: accepted, and the box had no response (boxes have none).
    const boxResponse = { position: [0, 0, 0], halfExtents: [1, 1, 1], response: 'bounce' } as unknown as Parameters<typeof addBox>[1];
    expectError(() => addBox(physics, boxResponse), -1, 'addBox: response', /is not an option of addBox/);
    const boxRadius = { position: [0, 0, 0], halfExtents: [1, 1, 1], radius: 1 } as unknown as Parameters<typeof addBox>[1];
    expectError(() => addBox(physics, boxRadius), -1, 'addBox: radius');
    const sphereRotation = { position: [0, 0, 0], radius: 1, rotation: [0, 0, 0, 1] } as unknown as Parameters<typeof addSphere>[1];
    expectError(() => addSphere(physics, sphereRotation), -1, 'addSphere: rotation');
    // Nothing was created by the failed calls; every documented key is accepted.
    expect(addSphere(physics, { position: [0, 0, 0], velocity: [0, 0, 0], sensor: false, group: 1, mask: 1, radius: 1, response: 'bounce', restitution: 0.5, mass: 2 })).toBe(1);
    expect(addBox(physics, { position: [0, 0, 0], velocity: [0, 0, 0], sensor: false, group: 1, mask: 1, halfExtents: [1, 1, 1], rotation: [0, 0, 0, 1] })).toBe(2);
  });

  it('set* helpers name the entity and the field, and leave the old value in place', () => {
    const { physics } = setup();
    const s = addSphere(physics, { position: [1, 2, 3], radius: 1 });
    const b = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    expectError(() => setPosition(physics, s, [0, NaN, 0]), s, 'Position.y');
    expectError(() => setPosition(physics, b, [Infinity, 0, 0]), b, 'Position.x');
    expectError(() => setVelocity(physics, s, [0, 0, -Infinity]), s, 'Velocity.z');
    expectError(() => setRadius(physics, s, -0.1), s, 'Sphere.radius');
    expectError(() => setRadius(physics, s, NaN), s, 'Sphere.radius');
    expectError(() => setHalfExtents(physics, b, [1, 1, -1]), b, 'Box.hz');
    expectError(() => setRotation(physics, b, [0, 0, 0, 0]), b, 'Box.rotation', /length 0/);
    expectError(() => setRotation(physics, b, { x: NaN, y: 0, z: 0, w: 1 }), b, 'setRotation: Box.qx', /finite/);
    const P = physics.components.Position;
    expect([P.x[s], P.y[s], P.z[s]]).toEqual([1, 2, 3]);
    expect(physics.components.Sphere.radius[s]).toBe(1);
    expect(physics.components.Box.qw[b]).toBe(1);
    // Not a body of this instance.
    expectError(() => setPosition(physics, 99, [0, 0, 0]), 99, 'setPosition: Position', /not a body/);
  });

  it('setRotation stores the quaternion as given (normalised where used), like a direct write', () => {
    const { physics } = setup();
    const b = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    const q: [number, number, number, number] = [0, 0, 2 * Math.sin(Math.PI / 8), 2 * Math.cos(Math.PI / 8)]; // 45° about z, length 2
    setRotation(physics, b, q);
    const B = physics.components.Box;
    expect([B.qx[b], B.qy[b], B.qz[b], B.qw[b]]).toEqual(q);
    // Used as the unit quaternion: the box's vertical edge is at x = √2, so a sphere at √2 + 1
    // touches it with radius 1 (a scaled rotation would put the edge elsewhere).
    const s = addSphere(physics, { position: [Math.SQRT2 + 1, 0, 0], radius: 1 - 1e-9 });
    step(physics);
    expect(physics.contacts.count).toBe(0);
    setRadius(physics, s, 1 + 1e-9);
    step(physics);
    expect(physics.contacts.count).toBe(1);
  });

  it('createPhysics rejects bad options, naming the option', () => {
    const bad: [object, string][] = [
      [{ dt: 0 }, 'options.dt'],
      [{ dt: NaN }, 'options.dt'],
      [{ capacity: 0 }, 'options.capacity'],
      [{ capacity: 1.5 }, 'options.capacity'],
      [{ cellSize: -1 }, 'options.cellSize'],
      [{ position: {} }, 'options.position'],
      [{ velocity: { x: [], y: [] } }, 'options.velocity'],
    ];
    for (const [o, field] of bad) expectError(() => createPhysics(createWorld(), o), -1, field);
  });
});

describe('step validates with validate on', () => {
  type Case = { what: string; field: string; make: (p: Physics) => number; spoil: (p: Physics, eid: number) => void };
  const sphere = (p: Physics) => addSphere(p, { position: [0, 0, 0], velocity: [1, 0, 0], radius: 1 });
  const movingBox = (p: Physics) => addBox(p, { position: [5, 0, 0], velocity: [1, 0, 0], halfExtents: [1, 1, 1] });
  const staticBox = (p: Physics) => addBox(p, { position: [9, 0, 0], halfExtents: [1, 1, 1] });
  const cases: Case[] = [
    { what: 'NaN position', field: 'Position.x', make: sphere, spoil: (p, e) => void (p.components.Position.x[e] = NaN) },
    { what: 'Infinity position', field: 'Position.z', make: movingBox, spoil: (p, e) => void (p.components.Position.z[e] = Infinity) },
    { what: 'NaN velocity', field: 'Velocity.y', make: sphere, spoil: (p, e) => void (p.components.Velocity.y[e] = NaN) },
    { what: '-Infinity velocity', field: 'Velocity.x', make: movingBox, spoil: (p, e) => void (p.components.Velocity.x[e] = -Infinity) },
    { what: 'negative radius', field: 'Sphere.radius', make: sphere, spoil: (p, e) => void (p.components.Sphere.radius[e] = -1) },
    { what: 'NaN radius', field: 'Sphere.radius', make: sphere, spoil: (p, e) => void (p.components.Sphere.radius[e] = NaN) },
    { what: 'negative extent', field: 'Box.hy', make: movingBox, spoil: (p, e) => void (p.components.Box.hy[e] = -2) },
    { what: 'zero quaternion', field: 'Box.rotation', make: movingBox, spoil: (p, e) => { const B = p.components.Box; B.qx[e] = B.qy[e] = B.qz[e] = B.qw[e] = 0; } },
    { what: 'NaN quaternion', field: 'Box.qz', make: movingBox, spoil: (p, e) => void (p.components.Box.qz[e] = NaN) },
    // Static boxes are checked when re-bucketed: after markStaticDirty, as documented.
    { what: 'static box NaN position', field: 'Position.y', make: staticBox, spoil: (p, e) => { p.components.Position.y[e] = NaN; markStaticDirty(p); } },
    { what: 'static box negative extent', field: 'Box.hx', make: staticBox, spoil: (p, e) => { p.components.Box.hx[e] = -1; markStaticDirty(p); } },
  ];
  for (const c of cases) {
    it(`${c.what} → PhysicsInputError naming the entity and ${c.field}; fixing it lets the step run`, () => {
      const { physics } = setup();
      addSphere(physics, { position: [20, 20, 20], radius: 1 });
      const eid = c.make(physics);
      step(physics);
      const saved = snapshot(physics, eid);
      c.spoil(physics, eid);
      expectError(() => step(physics), eid, c.field);
      expectError(() => step(physics), eid, c.field); // still there, still reported
      restore(physics, eid, saved);
      markStaticDirty(physics);
      expect(() => step(physics)).not.toThrow();
    });
  }

  it('a box added by raw bitecs calls with a negative extent fails at the first step', () => {
    const { physics } = setup();
    const e = addRawBody(physics, { shape: 'box', halfExtents: [1, 1, -3] });
    expectError(() => step(physics), e, 'Box.hz');
  });

  it('a box added by raw bitecs calls without a rotation is the identity (qw defaults to 1)', () => {
    const { physics } = setup();
    const c = physics.components;
    const e = addRawBody(physics, { shape: 'box', halfExtents: [1, 1, 1] });
    expect([c.Box.qx[e], c.Box.qy[e], c.Box.qz[e], c.Box.qw[e]]).toEqual([0, 0, 0, 1]);
    expect(() => step(physics)).not.toThrow();
  });

  it('validate: false lets NaN through without throwing or hanging, and NaN bodies touch nothing', () => {
    const { physics } = setup({ validate: false });
    const s = addSphere(physics, { position: [0, 0, 0], velocity: [1, 0, 0], radius: 1 });
    const ok = addSphere(physics, { position: [0.5, 0, 0], radius: 1 });
    addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    physics.components.Position.x[s] = NaN;
    physics.components.Velocity.y[s] = Infinity;
    const t0 = performance.now();
    for (let i = 0; i < 10; i++) step(physics);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(readContacts(physics).every((k) => k.a !== s && k.b !== s)).toBe(true);
    expect(readContacts(physics).some((k) => k.a === ok)).toBe(true);
  });
});

describe('huge coordinates never hang', () => {
  for (const validate of [false, true]) {
    it(`bodies at ±1e300 with huge velocities, validate ${validate}: steps finish quickly; near bodies still collide`, () => {
      const { physics } = setup({ validate });
      const near: number[] = [];
      for (let i = 0; i < 50; i++) near.push(addSphere(physics, { position: [i * 1.5, 0, 0], velocity: [0, 1, 0], radius: 1 }));
      for (let i = 0; i < 10; i++) addBox(physics, { position: [i * 8, -1.5, 0], halfExtents: [4, 1, 1] });
      const far = [
        addSphere(physics, { position: [1e300, -1e300, 1e300], velocity: [1e300, 1e300, -1e300], radius: 1e300 }),
        addSphere(physics, { position: [-1e300, 0, 0], radius: 1 }),
        addBox(physics, { position: [0, 1e300, 0], halfExtents: [1e300, 1e300, 1e300] }),
        addBox(physics, { position: [1e300, 0, 0], velocity: [-1e308, 0, 0], halfExtents: [1, 1, 1] }),
        addSphere(physics, { position: [1e15, 1e15, 1e15], velocity: [1e16, 0, 0], radius: 0 }),
      ];
      expect(far).toHaveLength(5);
      const t0 = performance.now();
      let reachedNear = 0;
      for (let i = 0; i < 20; i++) {
        step(physics);
        reachedNear += readContacts(physics).filter((k) => near.includes(k.a) && k.b <= 60).length;
      }
      expect(performance.now() - t0).toBeLessThan(5000);
      expect(reachedNear).toBeGreaterThan(0);
    });
  }

  it('with large finite values (1e60: fourth powers still finite) the contact list equals the brute force', () => {
    const S = 1e60;
    const { physics } = setup({ dt: 1 });
    addSphere(physics, { position: [10 * S, 0, 0], velocity: [-10 * S, 0, 0], radius: S });
    addBox(physics, { position: [0, 0, 0], halfExtents: [S, S, S] });
    addSphere(physics, { position: [0, 0, 0], radius: 1 });
    addSphere(physics, { position: [3 * S, 0, 0], radius: S });
    addSphere(physics, { position: [-10 * S, 5 * S, 0], velocity: [30 * S, 0, 0], radius: 0 });
    addBox(physics, { position: [0, 1.5 * S, 1.5 * S], halfExtents: [S, S, S] });
    const expected = bruteForceContacts(physics);
    step(physics);
    expect(expected.length).toBeGreaterThan(4);
    expect(readContacts(physics)).toEqual(expected.map((k) => ({ ...k, flags: k.flags | 1 })));
  });

  it('regression: no tunnelling at any speed — sweeps faster than ~1e154 units per tick miss sphere–sphere and edge hits', () => {
    // Valid, finite input. A unit sphere at x = -10 flies +x through a unit sphere at the origin and
    // past the edge of a box at (0, 1.5, 1.5): contacts 1-2 (toi ≈ 8/V) and 1-3 (edge, toi ≈ 8.29/V),
    // and a face hit 1-4. Reported up to V = 1e150; at V >= 1e154 only the face hit remains.
    const got: Record<string, string> = {};
    for (const V of [1e150, 1e155, 1e300]) {
      const { physics } = setup({ dt: 1 });
      addSphere(physics, { position: [-10, 0, 0], velocity: [V, 0, 0], radius: 1 });
      addSphere(physics, { position: [0, 0, 0], radius: 1 });
      addBox(physics, { position: [0, 1.5, 1.5], halfExtents: [1, 1, 1] });
      addBox(physics, { position: [5, 0, 0], halfExtents: [1, 1, 1] });
      step(physics);
      got[String(V)] = readContacts(physics).filter((k) => k.a === 1).map((k) => `${k.a}-${k.b}`).join(' ');
    }
    expect(got).toEqual({ '1e+150': '1-2 1-3 1-4', '1e+155': '1-2 1-3 1-4', '1e+300': '1-2 1-3 1-4' });
  });

  it('regression: huge finite sizes (~1e200, squared distance overflows) must give a finite depth and a unit normal (4d7b8c1: -Infinity and a zero normal)', () => {
    // Valid input (finite, passes validation): a sphere of radius 1e200 at the origin contains a
    // unit box at x = 5e199. The contact is real, but its depth is -Infinity and its normal (-0, 0, 0).
    const { physics } = setup({ dt: 1 });
    const big = addSphere(physics, { position: [0, 0, 0], radius: 1e200 });
    const box = addBox(physics, { position: [5e199, 0, 0], halfExtents: [1, 1, 1] });
    step(physics);
    const [k] = readContacts(physics);
    expect([k.a, k.b]).toEqual([big, box]);
    expect(Number.isFinite(k.depth) && k.depth >= 0).toBe(true); // actual: -Infinity
    expect(Math.hypot(k.nx, k.ny, k.nz)).toBeCloseTo(1, 12); // actual: 0
  });
});

function snapshot(p: Physics, e: number): number[] {
  const c = p.components;
  return [c.Position.x[e], c.Position.y[e], c.Position.z[e], c.Velocity.x[e], c.Velocity.y[e], c.Velocity.z[e], c.Sphere.radius[e],
    c.Box.hx[e], c.Box.hy[e], c.Box.hz[e], c.Box.qx[e], c.Box.qy[e], c.Box.qz[e], c.Box.qw[e]];
}
function restore(p: Physics, e: number, v: number[]): void {
  const c = p.components;
  [c.Position.x[e], c.Position.y[e], c.Position.z[e], c.Velocity.x[e], c.Velocity.y[e], c.Velocity.z[e], c.Sphere.radius[e],
    c.Box.hx[e], c.Box.hy[e], c.Box.hz[e], c.Box.qx[e], c.Box.qy[e], c.Box.qz[e], c.Box.qw[e]] = v;
}
