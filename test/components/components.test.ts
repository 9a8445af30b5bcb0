/**
 * The component stores of a physics instance (bitecs 0.4 SoA typed arrays), as seen through
 * `physics.components`: types, per-instance storage, defaults set by the observers, and what makes an
 * entity a body (Position + Sphere or Position + Box; Velocity makes it move).
 */
import { addComponent, addEntity, createWorld, removeComponent, query } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addBox, addSphere, createPhysics, step } from '../../src/index.js';
import { readContacts } from '../support/harness.js';

describe('component stores', () => {
  it('have the documented typed arrays', () => {
    const c = createPhysics(createWorld(), { capacity: 8 }).components;
    for (const k of ['x', 'y', 'z'] as const) {
      expect(c.Position[k]).toBeInstanceOf(Float64Array);
      expect(c.Velocity[k]).toBeInstanceOf(Float64Array);
    }
    expect(c.Sphere.radius).toBeInstanceOf(Float64Array);
    for (const k of ['hx', 'hy', 'hz', 'qx', 'qy', 'qz', 'qw'] as const) expect(c.Box[k]).toBeInstanceOf(Float64Array);
    expect(c.CollisionFilter.group).toBeInstanceOf(Uint32Array);
    expect(c.CollisionFilter.mask).toBeInstanceOf(Uint32Array);
    expect(Object.keys(c.Sensor)).toEqual([]);
    expect(c.Position.x.length).toBe(8);
    expect(c.Material.friction).toBeInstanceOf(Float64Array);
    for (const k of ['restitution', 'mass', 'damping', 'gravityScale'] as const) expect(c.Response[k]).toBeInstanceOf(Float64Array);
    for (const k of ['maxSlope', 'stepHeight', 'snapDistance', 'upX', 'upY', 'upZ', 'gravityScale', 'mass', 'nx', 'ny', 'nz'] as const) {
      expect(c.Character[k]).toBeInstanceOf(Float64Array);
    }
    expect(c.Character.grounded).toBeInstanceOf(Uint8Array);
    expect(c.Character.groundEid).toBeInstanceOf(Uint32Array);
    expect(Object.keys(c).sort()).toEqual(['Box', 'Character', 'CollisionFilter', 'Contact', 'Material', 'Position', 'Response', 'Sensor', 'Sphere', 'Velocity']);
  });

  it('belong to one instance: two instances share no store (no module globals)', () => {
    const a = createPhysics(createWorld()).components;
    const b = createPhysics(createWorld()).components;
    for (const k of Object.keys(a) as (keyof typeof a)[]) {
      expect(a[k]).not.toBe(b[k]);
      for (const f of Object.keys(a[k])) expect((a[k] as Record<string, unknown>)[f]).not.toBe((b[k] as Record<string, unknown>)[f]);
    }
  });

  it('Position + Sphere or Position + Box make a body; Velocity makes it move; neither alone does', () => {
    const world = createWorld();
    const p = createPhysics(world, { dt: 1 });
    const c = p.components;
    const mk = (...comps: object[]) => {
      const e = addEntity(world);
      for (const comp of comps) addComponent(world, e, comp);
      return e;
    };
    const box = mk(c.Position, c.Box);
    c.Box.hx[box] = c.Box.hy[box] = c.Box.hz[box] = 1;
    const sphereNoPos = mk(c.Sphere);
    c.Sphere.radius[sphereNoPos] = 5;
    const velOnly = mk(c.Position, c.Velocity);
    c.Velocity.x[velOnly] = 1;
    const s = mk(c.Position, c.Sphere, c.Velocity);
    c.Sphere.radius[s] = 1;
    c.Position.x[s] = 3;
    c.Velocity.x[s] = -1;
    step(p);
    expect(readContacts(p).map((k) => [k.a, k.b])).toEqual([[s, box]]);
    expect(c.Position.x[velOnly]).toBe(0); // not a body: not integrated
    expect(c.Position.x[s]).toBe(2);
    // Removing Velocity makes a sphere stay put; removing Box makes the box vanish.
    removeComponent(world, s, c.Velocity);
    step(p);
    expect(c.Position.x[s]).toBe(2);
    removeComponent(world, box, c.Box);
    step(p);
    expect(p.contacts.count).toBe(0);
  });

  it('a box with Velocity moves; removing its Velocity makes it static where it stopped', () => {
    const world = createWorld();
    const p = createPhysics(world, { dt: 1 });
    const c = p.components;
    const b = addBox(p, { position: [0, 0, 0], velocity: [1, 0, 0], halfExtents: [1, 1, 1] });
    const s = addSphere(p, { position: [3.9, 0, 0], radius: 1 });
    step(p);
    step(p);
    expect(c.Position.x[b]).toBe(2);
    removeComponent(world, b, c.Velocity);
    step(p);
    expect(c.Position.x[b]).toBe(2);
    expect(readContacts(p).map((k) => [k.a, k.b])).toEqual([[s, b]]);
  });

  it('defaults: CollisionFilter group 1 / mask 0xffffffff on Position add; Box qw 1 when added with a zero quaternion', () => {
    const world = createWorld();
    const p = createPhysics(world);
    const c = p.components;
    const e = addEntity(world);
    addComponent(world, e, c.Position);
    expect([c.CollisionFilter.group[e], c.CollisionFilter.mask[e]]).toEqual([1, 0xffffffff]);
    addComponent(world, e, c.Box);
    expect([c.Box.qx[e], c.Box.qy[e], c.Box.qz[e], c.Box.qw[e]]).toEqual([0, 0, 0, 1]);
    // A filter component set before Position is kept.
    const f = addEntity(world);
    addComponent(world, f, c.CollisionFilter);
    c.CollisionFilter.group[f] = 4;
    c.CollisionFilter.mask[f] = 8;
    addComponent(world, f, c.Position);
    expect([c.CollisionFilter.group[f], c.CollisionFilter.mask[f]]).toEqual([4, 8]);
  });

  it('helpers add the expected components (visible to bitecs queries)', () => {
    const world = createWorld();
    const p = createPhysics(world);
    const c = p.components;
    const s = addSphere(p, { position: [0, 0, 0], radius: 1, sensor: true, group: 2 });
    const b = addBox(p, { position: [0, 0, 0], velocity: [0, 0, 0], halfExtents: [1, 1, 1] });
    expect([...query(world, [c.Position, c.Sphere, c.Sensor, c.CollisionFilter])]).toEqual([s]);
    expect([...query(world, [c.Position, c.Box, c.Velocity])]).toEqual([b]);
    expect([...query(world, [c.Velocity])]).toEqual([b]);
    expect([c.CollisionFilter.group[s], c.CollisionFilter.mask[s]]).toEqual([2, 0xffffffff]);
  });
});
