/**
 * Many worlds at once: independent physics instances in one process give the same results as each
 * alone — stepped interleaved tick by tick, and interleaved phase by phase through the systems.
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addSphere, createPhysics, hashPhysicsState, removeBody, step, type Physics } from '../../src/index.js';
import { buildArena } from '../../src/scenes/buildArena.js';
import { addSphereOnBox } from '../support/bodies.js';
import { phaseSystems, reflectArena } from '../support/worlds.js';
import { readContacts, readPairs } from '../support/harness.js';

/** Per-tick fingerprint: state hash plus the began/ended lists (the hash covers the contact list). */
function fingerprint(p: Physics): string {
  return `${hashPhysicsState(p)} b${JSON.stringify(readPairs(p.began))} e${JSON.stringify(readPairs(p.ended))}`;
}

const configs = [
  { spheres: 300, seed: 1, sphereSphere: false },
  { spheres: 200, seed: 2, sphereSphere: true },
  { spheres: 100, seed: 3, sphereSphere: true, physics: { continuous: false } },
  { spheres: 250, seed: 4, sphereSphere: false, physics: { contactComponent: false, cellSize: 0.7 } },
];
const TICKS = 60;

function alone(i: number): string[] {
  const arena = buildArena(configs[i]);
  const out: string[] = [];
  for (let t = 0; t < TICKS; t++) {
    arena.tick();
    out.push(fingerprint(arena.physics));
  }
  return out;
}

describe('many worlds at once', () => {
  const reference = configs.map((_, i) => alone(i));

  it('each arena alone is deterministic (same fingerprints when run twice) and has contacts', () => {
    expect(alone(1)).toEqual(reference[1]);
    for (const [i, r] of reference.entries()) expect(r.filter((f) => !f.includes('b[]')).length, `arena ${i}`).toBeGreaterThan(0);
  });

  it('four arenas stepped interleaved, tick by tick, equal each run alone', () => {
    const arenas = configs.map((c) => buildArena(c));
    const got: string[][] = arenas.map(() => []);
    for (let t = 0; t < TICKS; t++) {
      // A different order each tick.
      const order = t % 2 === 0 ? [0, 1, 2, 3] : [3, 1, 0, 2];
      for (const i of order) {
        arenas[i].tick();
        got[i].push(fingerprint(arenas[i].physics));
      }
    }
    expect(got).toEqual(reference);
  });

  it('interleaved phase by phase through the systems (all broadphases, then all narrowphases, …)', () => {
    const arenas = configs.map((c) => buildArena(c));
    const systems = arenas.map((a) => phaseSystems(a.physics));
    const got: string[][] = arenas.map(() => []);
    for (let t = 0; t < TICKS; t++) {
      arenas.forEach((a, i) => systems[i].broadphase(a.world));
      arenas.forEach((a, i) => systems[i].narrowphase(a.world));
      arenas.forEach((a, i) => {
        if (a.physics.integrate) systems[i].integrate(a.world);
        reflectArena(a);
        got[i].push(fingerprint(a.physics));
      });
    }
    expect(got).toEqual(reference);
  });

  it('removing bodies in one world does not affect another world with the same ids', () => {
    const make = () => {
      const physics = createPhysics(createWorld(), { dt: 1 });
      addSphereOnBox(physics);
      addSphere(physics, { position: [0, -1.5, 0], radius: 1 });
      return physics;
    };
    const a = make();
    const b = make();
    step(a);
    step(b);
    removeBody(a, 2);
    step(a);
    step(b);
    expect(readContacts(a).map((k) => [k.a, k.b])).toEqual([[3, 1]]);
    expect(readContacts(b).map((k) => [k.a, k.b])).toEqual([[2, 1], [3, 1]]);
    expect(b.components.Position).not.toBe(a.components.Position);
  });

  it('two instances on the same bitecs world keep separate components and results', () => {
    const world = createWorld();
    const p1 = createPhysics(world, { dt: 1 });
    const p2 = createPhysics(world, { dt: 1 });
    const s = addSphere(p1, { position: [0, 0, 0], radius: 1 });
    const { sphere: s2 } = addSphereOnBox(p2);
    step(p1);
    step(p2);
    expect(p1.contacts.count).toBe(0);
    expect(readContacts(p2).map((k) => [k.a, k.b])).toEqual([[s2, s + 1]]);
  });
});
