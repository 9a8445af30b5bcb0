/**
 * Bad input caught where the README promises it (issue 9): each probe of the hostile-user review is
 * kept as a named regression. Every failure is a `PhysicsInputError` naming the field, consistent
 * between the helpers and `step`.
 */
import fc from 'fast-check';
import {
  $internal, addComponent, addEntity, createEntityIndex, createWorld, removeEntity, withVersioning, type World,
} from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, createBroadphaseSystem, createIntegrateSystem, createNarrowphaseSystem, createPhysics,
  destroyPhysics, markStaticDirty, removeBody, runBroadphase, runIntegrate, runNarrowphase, setHalfExtents,
  isAsleep, setPosition, setRadius, setRotation, setVelocity, step, type Physics, type Vec3Store,
} from '../../src/index.js';
import { boxRotation, validateBody } from '../../src/physics/bodyReads.js';

/** The rotation `boxRotation` writes (x, y, z, w). */
const rotation = new Float64Array(4);
import { internalsOf } from '../../src/physics/internal.js';
import { addRawBody } from '../support/bodies.js';
import { expectError, inputError } from '../support/inputError.js';

const setup = (options = {}) => createPhysics(createWorld(), { dt: 1 / 60, ...options });

describe('regressions: the motion, not only its factors', () => {
  it('regression: a finite velocity × a finite dt that overflows (1e300 × 1e10) is a PhysicsInputError on Velocity (moving box, at step)', () => {
    // Before: accepted; the sweeps got an infinite motion (toi-0 contacts with NaN normals).
    const physics = setup({ dt: 1e10 });
    addSphere(physics, { position: [1e6, 0, 0], radius: 1 });
    const box = addBox(physics, { position: [0, 0, 0], velocity: [0, -1e300, 0], halfExtents: [1, 1, 1] });
    expectError(() => step(physics), box, 'Velocity.y', /velocity × dt overflows: -1e\+300 × 10000000000 s = -Infinity/);
    setVelocity(physics, box, [0, -1e290, 0]);
    expect(() => step(physics)).not.toThrow();
  });

  it('regression: validateBody rejects a sphere whose velocity × dt overflows (the broadphase sends such bodies to it)', () => {
    const physics = setup({ dt: 1e10 });
    const s = addSphere(physics, { position: [0, 0, 0], velocity: [0, 0, 1e300], radius: 1 });
    expectError(() => validateBody(physics, s, internalsOf(physics).flags[s]), s, 'Velocity.z', /overflows/);
    physics.dt = 1;
    expect(() => validateBody(physics, s, internalsOf(physics).flags[s])).not.toThrow();
  });
});

describe('regressions: instance fields and stores name the real cause', () => {
  it('regression: dt = NaN, ±Infinity, 0, -1 or a string set on the instance is reported as dt (it was blamed on Position.x), by step and every system', () => {
    for (const dt of [NaN, Infinity, -Infinity, 0, -1, '0.5' as unknown as number]) {
      const physics = setup();
      const s = addSphere(physics, { position: [0, 0, 0], velocity: [1, 0, 0], radius: 1 });
      physics.dt = dt;
      expectError(() => step(physics), -1, 'dt', /must be a finite number > 0/);
      for (const run of [runBroadphase, runNarrowphase, runIntegrate]) expectError(() => run(physics), -1, 'dt');
      for (const make of [createBroadphaseSystem, createNarrowphaseSystem, createIntegrateSystem]) {
        expectError(() => make(physics)(physics.world), -1, 'dt');
      }
      expect(physics.components.Position.x[s]).toBe(0);
      physics.dt = 0.5;
      step(physics);
      expect(physics.components.Position.x[s]).toBe(0.5);
    }
  });

  it('regression: the switches continuous, integrate, validate, contactComponent must be booleans', () => {
    for (const name of ['continuous', 'integrate', 'validate', 'contactComponent'] as const) {
      for (const v of [1, 'false', undefined, null]) {
        const physics = setup();
        addSphere(physics, { position: [0, 0, 0], radius: 1 });
        (physics as unknown as Record<string, unknown>)[name] = v;
        expectError(() => step(physics), -1, name, /must be true or false/);
      }
    }
  });

  it('regression: a Position or Velocity store of the game shorter than the ids is reported by length and id (it said "got undefined")', () => {
    const n = 4;
    const mk = (): Vec3Store => ({ x: new Float64Array(n), y: new Float64Array(n), z: new Float64Array(n) });
    for (const which of ['position', 'velocity'] as const) {
      const physics = setup({ [which]: mk() });
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push(addSphere(physics, { position: [3 * i, 0, 0], velocity: [1, 0, 0], radius: 1 }));
      expect(ids[4]).toBe(5);
      const name = which === 'position' ? 'Position' : 'Velocity';
      const e = expectError(() => step(physics), 4, `${name}.x`, /entity id 4 is beyond the end of the .* store \(length 4\)/);
      expect(e.problem).toContain(`options.${which}`);
    }
  });

  it('regression: createPhysics rejects a store whose x, y, z lengths differ', () => {
    const position = { x: new Float64Array(8), y: new Float64Array(8), z: new Float64Array(4) };
    expectError(() => createPhysics(createWorld(), { position }), -1, 'createPhysics: options.position', /same length.*8, 8, 4/);
  });
});

describe('regressions: group and mask', () => {
  it('regression: NaN, 1.5, 2^32, strings, -2^31 - 1 are rejected by addSphere / addBox (they were stored as 0 or wrapped; 0 never collides)', () => {
    const physics = setup();
    for (const v of [NaN, 1.5, 2 ** 32, -(2 ** 31) - 1, Infinity, '1' as unknown as number, null as unknown as number]) {
      expectError(() => addSphere(physics, { position: [0, 0, 0], radius: 1, group: v }), -1, 'addSphere: group', /32 bits/);
      expectError(() => addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1], mask: v }), -1, 'addBox: mask', /32 bits/);
    }
    // Nothing was created by the failed calls.
    expect(addSphere(physics, { position: [0, 0, 0], radius: 1 })).toBe(1);
  });

  it('32-bit patterns from bitwise operators are fine (−1 = all bits, ~2 = all but bit 1); 0 is accepted: that body collides with nothing', () => {
    const physics = setup();
    const F = physics.components.CollisionFilter;
    const a = addSphere(physics, { position: [0, 0, 0], radius: 1, group: 2, mask: -1 });
    const b = addSphere(physics, { position: [1, 0, 0], radius: 1, group: 4, mask: ~2 });
    const c = addSphere(physics, { position: [0.5, 0, 0], radius: 1, group: 0x80000000 | 1, mask: 0xffffffff });
    const d = addSphere(physics, { position: [0.5, 0.5, 0], radius: 1, mask: 0 });
    expect([F.mask[a], F.mask[b], F.group[c], F.mask[d]]).toEqual([0xffffffff, 0xfffffffd, 0x80000001, 0]);
    step(physics);
    const pairs = [];
    for (let i = 0; i < physics.contacts.count; i++) pairs.push(`${physics.contacts.a[i]}-${physics.contacts.b[i]}`);
    expect(pairs).toEqual([`${a}-${c}`, `${b}-${c}`]); // a–b filtered (b's mask lacks a's bit 2); d collides with nothing
  });
});

describe('regressions: helpers on the wrong entity', () => {
  it('regression: setters for the other shape throw (setRadius on a box, setHalfExtents / setRotation on a sphere did nothing)', () => {
    const physics = setup();
    const s = addSphere(physics, { position: [0, 0, 0], radius: 1 });
    const b = addBox(physics, { position: [5, 0, 0], halfExtents: [1, 1, 1] });
    expectError(() => setRadius(physics, b, 2), b, 'setRadius: Sphere.radius', /is a box: setRadius applies to spheres only/);
    expectError(() => setHalfExtents(physics, s, [1, 1, 1]), s, 'setHalfExtents: Box', /is a sphere: setHalfExtents applies to boxes only/);
    expectError(() => setRotation(physics, s, [0, 0, 0, 1]), s, 'setRotation: Box.rotation', /is a sphere/);
    expect(physics.components.Sphere.radius[b]).toBe(0);
  });

  it('regression: removeBody throws for an entity that is not a body of this instance (it removed any entity)', () => {
    const physics = setup();
    const plain = addEntity(physics.world);
    const s = addSphere(physics, { position: [0, 0, 0], radius: 1 });
    const gone = addSphere(physics, { position: [9, 0, 0], radius: 1 });
    removeBody(physics, gone);
    for (const e of [plain, gone, 99, -1, 1.5, 2 ** 40]) expectError(() => removeBody(physics, e), e, 'removeBody: eid', /not a body/);
    removeBody(physics, s);
    expectError(() => removeBody(physics, s), s, 'removeBody: eid'); // twice
  });

  it('regression: a first argument that is not a Physics throws PhysicsInputError naming physics (it was a TypeError reading the internals)', () => {
    for (const bad of [undefined, null, 3, {}, 'physics'] as unknown as Physics[]) {
      const calls: [string, () => unknown][] = [
        ['addSphere', () => addSphere(bad, { position: [0, 0, 0], radius: 1 })],
        ['setPosition', () => setPosition(bad, 1, [1, 0, 0])],
        ['removeBody', () => removeBody(bad, 1)],
        ['isAsleep', () => isAsleep(bad, 1)],
      ];
      for (const [source, call] of calls) expectError(call, -1, `${source}: physics`, /must be the instance createPhysics returned/);
      expectError(() => step(bad), -1, 'physics', /must be the instance createPhysics returned/);
    }
  });

  it('regression: a destroyed instance throws from every helper, step and the systems (bodies added after destroyPhysics were ignored, their writes out of range)', () => {
    const physics = setup({ capacity: 2 });
    const s = addSphere(physics, { position: [0, 0, 0], radius: 1 });
    const b = addBox(physics, { position: [3, 0, 0], halfExtents: [1, 1, 1] });
    destroyPhysics(physics);
    const calls: [string, () => unknown][] = [
      ['addSphere', () => addSphere(physics, { position: [0, 0, 0], radius: 1 })],
      ['addBox', () => addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] })],
      ['setPosition', () => setPosition(physics, s, [1, 0, 0])],
      ['setVelocity', () => setVelocity(physics, s, [1, 0, 0])],
      ['setRadius', () => setRadius(physics, s, 2)],
      ['setHalfExtents', () => setHalfExtents(physics, b, [1, 1, 1])],
      ['setRotation', () => setRotation(physics, b, [0, 0, 0, 1])],
      ['removeBody', () => removeBody(physics, s)],
      ['markStaticDirty', () => markStaticDirty(physics)],
    ];
    for (const [source, call] of calls) expectError(call, -1, `${source}: physics`, /destroyed by destroyPhysics/);
    for (const run of [step, runBroadphase, runNarrowphase, runIntegrate]) expectError(() => run(physics), -1, 'physics', /destroyed/);
    expectError(() => createBroadphaseSystem(physics)(physics.world), -1, 'physics');
    expect(physics.components.Position.x.length).toBe(4); // nothing grew or was written out of range
  });
});

describe('regressions: quaternions, the same set accepted by the helpers and by step', () => {
  const quat = (B: Physics['components']['Box'], e: number) => [B.qx[e], B.qy[e], B.qz[e], B.qw[e]];

  it('regression: addBox accepted [1e200, 0, 0, 0] that step then rejected; it rejected [1e-7, 0, 0, 0] as length 0: both are valid, stored as given, used as (1, 0, 0, 0)', () => {
    for (const q of [[1e200, 0, 0, 0], [1e-7, 0, 0, 0], [5e-324, 0, 0, 0], [Number.MAX_VALUE, 0, 0, -Number.MAX_VALUE]] as const) {
      const physics = setup();
      const b = addBox(physics, { position: [0, 0, 0], halfExtents: [2, 1, 1], rotation: q });
      expect(quat(physics.components.Box, b)).toEqual(q);
      // (1, 0, 0, 0) is a half turn about x: the box keeps its extents; a sphere at x = 2.5 touches it.
      addSphere(physics, { position: [2.5, 0, 0], radius: 0.5 });
      expect(() => step(physics), String(q)).not.toThrow();
      expect(physics.contacts.count, String(q)).toBe(1);
      const e = addRawBody(physics, { shape: 'box', halfExtents: [1, 1, 1], rotation: [...q] });
      expect(() => step(physics)).not.toThrow();
      boxRotation(physics, e, rotation);
      const n = Math.hypot(rotation[0], rotation[1], rotation[2], rotation[3]);
      expect(Math.abs(n - 1)).toBeLessThan(1e-15);
    }
  });

  it('a zero quaternion: the same problem from addBox, setRotation and step', () => {
    const physics = setup();
    const text = /^quaternion has length 0 \(identity is \[0, 0, 0, 1\]\)$/;
    const a = expectError(() => addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1], rotation: [0, 0, 0, 0] }), -1, 'addBox: rotation', text);
    const b = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    const c = expectError(() => setRotation(physics, b, [0, -0, 0, 0]), b, 'setRotation: Box.rotation', text);
    const B = physics.components.Box;
    B.qw[b] = 0;
    markStaticDirty(physics);
    const d = expectError(() => step(physics), b, 'Box.rotation', text);
    expect(new Set([a.problem, c.problem, d.problem]).size).toBe(1);
    // A non-finite component: the same problem text too (field Box.qy).
    B.qw[b] = 1;
    B.qy[b] = Infinity;
    const f = expectError(() => step(physics), b, 'Box.qy');
    const g = expectError(() => setRotation(physics, b, [0, Infinity, 0, 1]), b, 'setRotation: Box.qy');
    expect(f.problem).toBe(g.problem);
  });

  it('property: the helpers accept a quaternion iff step does, at every scale; the rotation used is unit and parallel to it', () => {
    const scale = fc.constantFrom(1, 2 ** -1074, 2 ** -1000, 2 ** -600, 2 ** -300, 2 ** 300, 2 ** 600, 2 ** 1000);
    const part = fc.oneof(fc.double({ min: -2, max: 2, noNaN: true }), fc.constantFrom(0, -0, 1, -1));
    fc.assert(
      fc.property(fc.tuple(part, part, part, part), scale, (raw, k) => {
        const q = raw.map((v) => v * k) as [number, number, number, number];
        const physics = setup();
        let helperOk = true;
        try {
          addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1], rotation: q });
        } catch {
          helperOk = false;
        }
        const raw2 = addRawBody(physics, { shape: 'box', halfExtents: [1, 1, 1], rotation: q });
        let stepOk = true;
        try {
          step(physics);
        } catch (e) {
          stepOk = false;
          expect(inputError(() => { throw e; }).eid).toBe(raw2);
        }
        expect(stepOk).toBe(helperOk);
        expect(helperOk).toBe(q.every(Number.isFinite) && q.some((v) => v !== 0));
        if (!helperOk) return;
        boxRotation(physics, raw2, rotation);
        expect(Math.abs(Math.hypot(rotation[0], rotation[1], rotation[2], rotation[3]) - 1)).toBeLessThan(1e-15);
        const m = Math.max(...q.map(Math.abs));
        for (let i = 0; i < 4; i++) expect(Math.abs(rotation[i] * Math.hypot(...q.map((v) => v / m)) - q[i] / m)).toBeLessThan(1e-15);
      }),
      { seed: 9, numRuns: 400 },
    );
  });

  it('quaternions of ordinary length are normalised exactly as before (q · 1/√|q|², q itself when |q|² = 1): results stay bit-identical', () => {
    const physics = setup();
    fc.assert(
      fc.property(fc.tuple(fc.double({ min: -1e10, max: 1e10, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: 0.001, max: 1e5, noNaN: true })), (q) => {
        const e = addRawBody(physics, { shape: 'box', halfExtents: [1, 1, 1], rotation: q });
        boxRotation(physics, e, rotation);
        const n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
        const inv = n2 === 1 ? 1 : 1 / Math.sqrt(n2);
        expect(Array.from(rotation)).toEqual(n2 === 1 ? q : q.map((v) => v * inv));
      }),
      { seed: 10, numRuns: 300 },
    );
  });
});

describe('regressions: entity ids the stores cannot take', () => {
  it('regression: a world with entity id versioning is rejected by createPhysics (recycled ids >= 2^24 made the stores double without bound)', () => {
    const world = createWorld(createEntityIndex(withVersioning(8)));
    expectError(() => createPhysics(world), -1, 'createPhysics: world', /versioning/);
    expect(() => createPhysics(createWorld(createEntityIndex()))).not.toThrow();
  });

  it('regression: an entity id >= 2^24 reaching the stores throws a clear error instead of growing them without bound', () => {
    const world = createWorld();
    const physics = createPhysics(world, { capacity: 8 });
    addSphere(physics, { position: [0, 0, 0], radius: 1 });
    // Versioning switched on behind the physics's back: the next recycled id is 2 + 2^24.
    (world as World & { [$internal]: { entityIndex: { versioning: boolean } } })[$internal].entityIndex.versioning = true;
    removeEntity(world, addEntity(world));
    const e = addEntity(world);
    expect(e).toBe(2 + 2 ** 24);
    expectError(() => addComponent(world, e, physics.components.Position), e, 'eid', /below 2\^24/);
    expect(physics.components.Position.x.length).toBe(8);
  });
});
