/**
 * The bitecs systems: `(world) => world`, composable with bitecs `pipe`; piping broadphase,
 * narrowphase and integration equals `step`.
 */
import { createWorld, hasComponent, pipe } from 'bitecs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, createPhysics, hashPhysicsState, step, type Physics,
  createBroadphaseSystem, createIntegrateSystem, createNarrowphaseSystem,
} from '../../src/index.js';
import { buildArena } from '../../src/scenes/buildArena.js';
import { phasePipeline, reflectArena } from '../support/worlds.js';
import { applyOps, readContacts, readPairs, scenarioArb, startRun } from '../support/harness.js';

function fingerprint(p: Physics): string {
  const C = p.components.Contact;
  const contactData: number[] = [];
  for (let e = 1; e < 400 && e < C.count.length; e++) {
    if (hasComponent(p.world, e, C)) contactData.push(e, C.other[e], C.nx[e], C.depth[e], C.toi[e], C.count[e], C.px[e]);
  }
  return `${hashPhysicsState(p)} ${p.tick} b${JSON.stringify(readPairs(p.began))} e${JSON.stringify(readPairs(p.ended))} c${contactData.join(',')}`;
}

describe('systems', () => {
  it('each system takes the world and returns the same world', () => {
    const world = createWorld();
    const p = createPhysics(world);
    for (const make of [createBroadphaseSystem, createNarrowphaseSystem, createIntegrateSystem]) {
      const sys = make(p);
      expect(typeof sys).toBe('function');
      expect(sys(world)).toBe(world);
    }
    expect(phasePipeline(p)(world)).toBe(world);
  });

  it('pipe(broadphase, narrowphase, integrate) equals step on two arenas, 120 ticks (with and without sphere–sphere)', () => {
    for (const sphereSphere of [false, true]) {
      const a = buildArena({ spheres: 400, seed: 11, sphereSphere });
      const b = buildArena({ spheres: 400, seed: 11, sphereSphere });
      const tick = phasePipeline(b.physics);
      let contacts = 0;
      for (let t = 0; t < 120; t++) {
        a.tick();
        tick(b.world);
        reflectArena(b);
        expect(fingerprint(b.physics), `tick ${t}`).toBe(fingerprint(a.physics));
        contacts += a.physics.contacts.count;
      }
      expect(contacts).toBeGreaterThan(100);
    }
  });

  it('pipe equals step on random churn scenarios (seed 31)', () => {
    fc.assert(
      fc.property(scenarioArb({ maxBodies: 16 }), (sc) => {
        const a = startRun(sc);
        const b = startRun(sc);
        const tick = phasePipeline(b.physics);
        for (const ops of sc.ticks) {
          applyOps(a, ops);
          applyOps(b, ops);
          step(a.physics);
          tick(b.world);
          expect(fingerprint(b.physics)).toBe(fingerprint(a.physics));
          expect(readContacts(b.physics)).toEqual(readContacts(a.physics));
        }
      }),
      { seed: 31, numRuns: 150, interruptAfterTimeLimit: 20_000 },
    );
  });

  it('phases alone: broadphase reports nothing, narrowphase moves nothing, integrate moves by v·dt only', () => {
    const world = createWorld();
    const p = createPhysics(world, { dt: 0.5 });
    const s = addSphere(p, { position: [0, 0, 0], velocity: [2, 0, 0], radius: 1 });
    addBox(p, { position: [2.5, 0, 0], halfExtents: [1, 1, 1] });
    const P = p.components.Position;
    createBroadphaseSystem(p)(world);
    expect(p.contacts.count).toBe(0);
    expect(p.tick).toBe(0);
    createNarrowphaseSystem(p)(world);
    expect(p.contacts.count).toBe(1);
    expect(p.tick).toBe(1);
    expect(P.x[s]).toBe(0);
    createIntegrateSystem(p)(world);
    expect(P.x[s]).toBe(1);
    expect(p.contacts.count).toBe(1); // integration does not touch the contact list
  });

  it('a game’s own movement system can replace integration', () => {
    const world = createWorld();
    const p = createPhysics(world, { dt: 1 });
    const s = addSphere(p, { position: [-5, 0, 0], velocity: [1, 0, 0], radius: 1 });
    addBox(p, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    const P = p.components.Position;
    const V = p.components.Velocity;
    // Stop at the first contact (toi), as a game would resolve it.
    const stopAtContact = (w: typeof world) => {
      const l = p.contacts;
      const t = l.count > 0 ? l.toi[0] : 1;
      P.x[s] += V.x[s] * p.dt * t;
      if (l.count > 0) V.x[s] = 0;
      return w;
    };
    const tick = pipe(createBroadphaseSystem(p), createNarrowphaseSystem(p), stopAtContact);
    for (let t = 0; t < 6; t++) tick(world);
    expect(P.x[s]).toBe(-2);
    expect(p.contacts.count).toBe(1);
  });
});
