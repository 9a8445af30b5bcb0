/**
 * bitecs 0.4 `set()`: `addComponent(world, eid, set(Position, {x, y, z}))`, `addComponents`,
 * `addEntity(world, set(…))` and `setComponent` write the physics components, validated like the
 * helpers (issue 10, item 2).
 */
import { addComponent, addComponents, addEntity, createWorld, removeComponent, set, setComponent } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { createComponents } from '../../components/index.js';
import { addBox, addSphere, createPhysics, destroyPhysics, hashPhysicsState, ResponseMode, step, type Physics } from '../../src/index.js';
import { SET_WRITERS } from '../../src/physics/setHandlers.js';
import { expectError } from '../support/inputError.js';

function setup(options = {}) {
  const world = createWorld();
  return { world, physics: createPhysics(world, { dt: 1 / 60, ...options }) };
}

/** A ball falling onto a rotated static box, built with the helpers. */
function buildWithHelpers(physics: Physics): void {
  addBox(physics, { position: [0, -1, 0], halfExtents: [10, 1, 10], rotation: [0, 0, 0.1, 1] });
  addSphere(physics, { position: [0.5, 2, 0], radius: 0.5, velocity: [0, -120, 0], group: 3, mask: 5 });
}

/** The same scene through bitecs set() only. */
function buildWithSet(physics: Physics): void {
  const { world, components: c } = physics;
  addEntity(world, set(c.Position, { x: 0, y: -1, z: 0 }), set(c.Box, { halfExtents: [10, 1, 10], rotation: { x: 0, y: 0, z: 0.1, w: 1 } }));
  const ball = addEntity(world);
  addComponents(world, ball, set(c.Position, [0.5, 2, 0]), set(c.Sphere, { radius: 0.5 }), set(c.Velocity, { x: 0, y: -120, z: 0 }));
  addComponent(world, ball, set(c.CollisionFilter, { group: 3, mask: 5 }));
}

describe('bitecs set() on the physics components', () => {
  it('a scene built with set() steps exactly like one built with the helpers', () => {
    const a = setup();
    const b = setup();
    buildWithHelpers(a.physics);
    buildWithSet(b.physics);
    let began = 0;
    for (let t = 0; t < 30; t++) {
      step(a.physics);
      step(b.physics);
      expect(hashPhysicsState(b.physics)).toBe(hashPhysicsState(a.physics));
      began += b.physics.began.count;
    }
    expect(began).toBe(1);
  });

  it('setComponent updates: vectors as objects or arrays, box fields one by one, filter fields alone', () => {
    const { world, physics } = setup();
    const { Position, Velocity, Box, Sphere, CollisionFilter: F } = physics.components;
    const s = addSphere(physics, { position: [1, 2, 3], radius: 1 });
    setComponent(world, s, Position, [4, 5, 6]);
    setComponent(world, s, Velocity, { x: -1, y: 0, z: 2 });
    setComponent(world, s, Sphere, { radius: 0.25 });
    expect([Position.x[s], Position.y[s], Position.z[s], Velocity.x[s], Velocity.z[s], Sphere.radius[s]]).toEqual([4, 5, 6, -1, 2, 0.25]);
    setComponent(world, s, F, { group: 4 });
    expect([F.group[s], F.mask[s]]).toEqual([4, 0xffffffff]); // a new filter keeps the default mask
    setComponent(world, s, F, { mask: ~2 });
    expect([F.group[s], F.mask[s]]).toEqual([4, 0xfffffffd]);
    const b = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 2, 3] });
    setComponent(world, b, Box, { hy: 7 });
    expect([Box.hx[b], Box.hy[b], Box.hz[b], Box.qw[b]]).toEqual([1, 7, 3, 1]);
    setComponent(world, b, Box, { qx: 0, qy: 1, qz: 0, qw: 1 });
    expect([Box.qx[b], Box.qy[b], Box.qz[b], Box.qw[b], Box.hy[b]]).toEqual([0, 1, 0, 1, 7]);
  });

  it('a set() on a static box re-buckets it at the next step', () => {
    const { world, physics } = setup();
    const b = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    const s = addSphere(physics, { position: [10, 0, 0], radius: 0.5 });
    step(physics);
    expect(physics.contacts.count).toBe(0);
    setComponent(world, b, physics.components.Position, [9, 0, 0]);
    step(physics);
    expect([physics.contacts.count, physics.contacts.a[0], physics.contacts.b[0]]).toEqual([1, s, b]);
    setComponent(world, b, physics.components.Box, { halfExtents: [0.1, 0.1, 0.1] });
    step(physics);
    expect(physics.contacts.count).toBe(0);
  });

  it('bad data throws PhysicsInputError naming set(Name), the entity and the field; stored values stay', () => {
    const { world, physics } = setup();
    const { Position, Velocity, Sphere, Box, CollisionFilter } = physics.components;
    const s = addSphere(physics, { position: [1, 2, 3], radius: 1, velocity: [1, 1, 1] });
    const b = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 2, 3] });
    expectError(() => setComponent(world, s, Position, { x: 0, y: NaN, z: 0 }), s, 'set(Position): Position.y', /finite/);
    expectError(() => setComponent(world, s, Position, [0, 0]), s, 'set(Position): Position.z');
    expectError(() => setComponent(world, s, Position, 'up'), s, 'set(Position): Position', /\{x, y, z\}/);
    expectError(() => setComponent(world, s, Velocity, [Infinity, 0, 0]), s, 'set(Velocity): Velocity.x');
    // Regression: an unknown key of a vector object was ignored although unknown keys throw.
    expectError(() => setComponent(world, s, Position, { x: 0, y: 0, z: 0, zz: 1 }), s, 'set(Position): zz', /not a field of \{x, y, z\}/);
    expectError(() => setComponent(world, s, Velocity, { x: 0, y: 0, z: 0, w: 1 }), s, 'set(Velocity): w', /not a field/);
    expectError(() => setComponent(world, s, Sphere, { radius: -1 }), s, 'set(Sphere): Sphere.radius', />= 0/);
    expectError(() => setComponent(world, s, Sphere, { radus: 1 }), s, 'set(Sphere): radus', /not a field/);
    expectError(() => setComponent(world, s, Sphere, 2), s, 'set(Sphere): data', /\{radius\}/);
    expectError(() => setComponent(world, s, CollisionFilter, { group: 1.5 }), s, 'set(CollisionFilter): CollisionFilter.group', /32 bits/);
    expectError(() => setComponent(world, s, CollisionFilter, { group: 2, mask: 2 ** 32 }), s, 'set(CollisionFilter): CollisionFilter.mask');
    expectError(() => setComponent(world, b, Box, { hx: -1 }), b, 'set(Box): Box.hx', />= 0/);
    expectError(() => setComponent(world, b, Box, { halfExtents: [1, 1, NaN] }), b, 'set(Box): Box.hz');
    expectError(() => setComponent(world, b, Box, { halfExtents: [1, 1, 1], hx: 1 }), b, 'set(Box): halfExtents', /not both/);
    expectError(() => setComponent(world, b, Box, { rotation: [0, 0, 0, 0] }), b, 'set(Box): Box.rotation', /length 0/);
    expectError(() => setComponent(world, b, Box, { qx: 1 }), b, 'set(Box): Box.rotation', /all four/);
    expectError(() => setComponent(world, b, Box, {}), b, 'set(Box): data', /at least one/);
    expect([Position.x[s], Position.y[s], Position.z[s], Velocity.x[s], Sphere.radius[s]]).toEqual([1, 2, 3, 1, 1]);
    expect([CollisionFilter.group[s], CollisionFilter.mask[s]]).toEqual([1, 0xffffffff]);
    expect([Box.hx[b], Box.hy[b], Box.hz[b], Box.qx[b], Box.qw[b]]).toEqual([1, 2, 3, 0, 1]);
  });

  it('a vector object whose class puts an enumerable flag on its prototype is accepted (only own keys are data)', () => {
    const { world, physics } = setup();
    class V3 { x: number; y: number; z: number; constructor(x: number, y: number, z: number) { this.x = x; this.y = y; this.z = z; } }
    (V3.prototype as unknown as Record<string, unknown>).isVector3 = true; // as three.js does
    const s = addSphere(physics, { position: [0, 0, 0], radius: 1 });
    setComponent(world, s, physics.components.Position, new V3(1, 2, 3));
    expect([physics.components.Position.x[s], physics.components.Position.y[s], physics.components.Position.z[s]]).toEqual([1, 2, 3]);
  });

  it('Response: set() and setComponent write mode (name or ResponseMode value), restitution and mass, checked first', () => {
    const { world, physics } = setup();
    const { Response } = physics.components;
    const s = addSphere(physics, { position: [0, 0, 0], radius: 1, velocity: [1, 0, 0] });
    addComponent(world, s, set(Response, { mode: 'slide', restitution: 0.5, mass: 2 }));
    expect([Response.mode[s], Response.restitution[s], Response.mass[s]]).toEqual([ResponseMode.SLIDE, 0.5, 2]);
    setComponent(world, s, Response, { mode: ResponseMode.BOUNCE });
    expect([Response.mode[s], Response.restitution[s], Response.mass[s]]).toEqual([ResponseMode.BOUNCE, 0.5, 2]);
    expectError(() => setComponent(world, s, Response, { mode: 'fly' }), s, 'set(Response): Response.mode', /'stop'/);
    expectError(() => setComponent(world, s, Response, { mode: 'stop', restitution: 1.5 }), s, 'set(Response): Response.restitution', /\[0, 1\]/);
    expectError(() => setComponent(world, s, Response, { mass: -1 }), s, 'set(Response): Response.mass', />= 0/);
    expectError(() => setComponent(world, s, Response, { bounce: 1 }), s, 'set(Response): bounce', /not a field/);
    expect([Response.mode[s], Response.restitution[s], Response.mass[s]]).toEqual([ResponseMode.BOUNCE, 0.5, 2]);
  });

  it('ids beyond the initial capacity: the stores grow before the data is written', () => {
    const { world, physics } = setup({ capacity: 4 });
    const { Position, Sphere } = physics.components;
    let e = 0;
    for (let i = 0; i < 40; i++) e = addEntity(world, set(Position, [i, 0, 0]), set(Sphere, { radius: 0.25 }));
    expect([e, Position.x[e], Sphere.radius[e]]).toEqual([40, 39, 0.25]);
    step(physics);
    expect(physics.contacts.count).toBe(0);
  });

  it('a removed and re-added filter takes the defaults, then the set() data', () => {
    const { world, physics } = setup();
    const F = physics.components.CollisionFilter;
    const s = addSphere(physics, { position: [0, 0, 0], radius: 1, group: 2, mask: 2 });
    removeComponent(world, s, F);
    addComponent(world, s, set(F, { mask: 6 }));
    expect([F.group[s], F.mask[s]]).toEqual([1, 6]);
  });

  it("a game's own Position store gets no handler: its set() data is the game's business", () => {
    const world = createWorld();
    const own = { x: new Float64Array(8), y: new Float64Array(8), z: new Float64Array(8) };
    const physics = createPhysics(world, { position: own });
    const e = addEntity(world, set(own, { x: 'not ours' }), set(physics.components.Sphere, { radius: 2 }));
    expect([own.x[e], physics.components.Sphere.radius[e]]).toEqual([0, 2]);
  });

  it('destroyPhysics removes the handlers', () => {
    const { world, physics } = setup();
    const { Position } = physics.components;
    destroyPhysics(physics);
    const e = addEntity(world, set(Position, { x: NaN, y: 0, z: 0 }));
    expect(Position.x[e]).toBe(0);
  });

  it('every physics component with data has a set() writer (Contact: written by the physics; Sensor: a tag)', () => {
    const withData = Object.keys(createComponents(1)).filter((k) => k !== 'Contact' && k !== 'Sensor');
    expect(Object.keys(SET_WRITERS).sort()).toEqual(withData.sort());
  });
});
