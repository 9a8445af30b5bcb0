/**
 * Two physics instances with dynamic bodies in one process share nothing: stepped interleaved (tick
 * by tick; by the systems' three phases crossed between them; and by the stages of src/step/step.ts,
 * one instance's stage between two of the other's), each gives at every tick the state hash of the
 * same world stepped alone. Their gravity, dt and scenes differ, so
 * that a value left by one instance's response (the rest speed, the current time, a record, the
 * contact list being merged) would change the other's result.
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, createPhysics, hashPhysicsState, runBroadphase, runIntegrate, runNarrowphase, type Physics,
} from '../../src/index.js';
import { applyContactComponent, updateContactData } from '../../src/contacts/contactComponent.js';
import { internalsOf, setTick } from '../../src/physics/internal.js';
import { respond } from '../../src/response/resolve.js';
import { R_IMPACTS } from '../../src/response/responseState.js';
import { clearPurged } from '../../src/step/clearPurged.js';
import { diffContacts } from '../../src/contacts/contactDiff.js';
import { findPairs } from '../../src/step/findPairs.js';
import { applyGravity } from '../../src/step/gravity.js';
import { checkStatic } from '../../src/step/checkStatic.js';
import { scanBodies } from '../../src/step/scanBodies.js';
import { integrate } from '../../src/step/integrate.js';
import { testPairs } from '../../src/step/testPairs.js';
import { createRng } from '../../src/scenes/prng.js';
import { arenaInOrder, type ArenaCase, type ArenaRun } from '../determinism/scenes.js';

interface PileCase {
  seed: number;
  gravityY: number;
  dt: number;
  spheres: number;
  /** Kinematic spheres sliding on the floor (contacts of the narrowphase, not the response). */
  kinematic: number;
}

const MODES = ['stop', 'slide', 'bounce'] as const;

/**
 * Dynamic spheres of every mode falling into an open box of five static walls, with sensors,
 * kinematic spheres and a moving box on the floor among them: impacts, resting contacts (the
 * start-of-tick solve), slides, push-outs, sensor records, and contacts of pairs without a dynamic
 * body.
 */
function pile(c: PileCase): Physics {
  const rng = createRng(c.seed);
  const physics = createPhysics(createWorld(), { capacity: 8, dt: c.dt, gravity: [0, c.gravityY, 0] });
  const L = 6;
  addBox(physics, { position: [0, -0.5, 0], halfExtents: [L, 0.5, L] });
  for (const [x, z, hx, hz] of [[-L, 0, 0.5, L], [L, 0, 0.5, L], [0, -L, L, 0.5], [0, L, L, 0.5]] as const) {
    addBox(physics, { position: [x, L / 2, z], halfExtents: [hx, L / 2, hz] });
  }
  const turn: [number, number, number, number] = [0, 0.38268343236508984, 0, 0.9238795325112867];
  addBox(physics, { position: [0, 0.15, 0], halfExtents: [1, 0.2, 1], velocity: [0.5, 0, -0.3], rotation: turn });
  for (let i = 0; i < c.kinematic; i++) {
    addSphere(physics, { position: [-4 + 2 * i, 0.5, 3], radius: 0.6, velocity: [0.2, 0, -0.3] });
  }
  for (let i = 0; i < c.spheres; i++) {
    const r = rng.range(0.2, 0.6);
    addSphere(physics, {
      position: [rng.range(-L + 1, L - 1), rng.range(r, 3 * L), rng.range(-L + 1, L - 1)],
      velocity: [rng.range(-3, 3), rng.range(-3, 3), rng.range(-3, 3)],
      radius: r,
      sensor: rng.next() < 0.1,
      response: MODES[Math.floor(rng.next() * 3)],
      restitution: rng.next(),
      mass: rng.range(0.5, 2),
    });
  }
  return physics;
}

/** The tick as the three systems run it. */
function stepStages(physics: Physics): void {
  runBroadphase(physics);
  runNarrowphase(physics);
  runIntegrate(physics);
}

const TICKS = 150;
const PILE_A: PileCase = { seed: 11, gravityY: -9.81, dt: 1 / 60, spheres: 70, kinematic: 3 };
const PILE_B: PileCase = { seed: 29, gravityY: -4, dt: 1 / 45, spheres: 50, kinematic: 1 };
const ARENA_A: ArenaCase = { spheres: 400, seed: 3, sphereSphere: true, response: { gravityY: -9.81 } };
const ARENA_B: ArenaCase = { spheres: 300, seed: 8, sphereSphere: true, response: { gravityY: 0 } };

/** Hashes of every tick of `c` stepped alone, and the impacts resolved over them. */
function alonePile(c: PileCase): { hashes: string[]; impacts: number } {
  const physics = pile(c);
  const hashes: string[] = [];
  let impacts = 0;
  for (let t = 0; t < TICKS; t++) {
    stepStages(physics);
    hashes.push(hashPhysicsState(physics));
    impacts += internalsOf(physics).response!.work[R_IMPACTS];
  }
  return { hashes, impacts };
}

function aloneArena(c: ArenaCase): string[] {
  const run = arenaInOrder(c);
  const hashes: string[] = [];
  for (let t = 0; t < TICKS; t++) {
    run.tick();
    hashes.push(hashPhysicsState(run.physics));
  }
  return hashes;
}

describe('two instances with dynamic bodies in one process', () => {
  it('stepped interleaved stage by stage, each hashes at every tick as stepped alone', () => {
    const a = alonePile(PILE_A);
    const b = alonePile(PILE_B);
    expect(a.impacts).toBeGreaterThan(100);
    expect(b.impacts).toBeGreaterThan(100);
    const pa = pile(PILE_A);
    const pb = pile(PILE_B);
    const ha: string[] = [];
    const hb: string[] = [];
    for (let t = 0; t < TICKS; t++) {
      // Crossed: B's broadphase between A's, A's narrowphase (the response) after B's.
      runBroadphase(pa);
      runBroadphase(pb);
      runNarrowphase(pb);
      runNarrowphase(pa);
      runIntegrate(pa);
      runIntegrate(pb);
      ha.push(hashPhysicsState(pa));
      hb.push(hashPhysicsState(pb));
    }
    expect(ha).toEqual(a.hashes);
    expect(hb).toEqual(b.hashes);
  });

  it('stepped interleaved by the single stages of step.ts, each hashes at every tick as stepped alone', () => {
    const a = alonePile(PILE_A);
    const b = alonePile(PILE_B);
    const both = [pile(PILE_A), pile(PILE_B)];
    const hashes: string[][] = [[], []];
    // The stages of one tick as step.ts lists them (both instances have dynamic bodies, contactComponent on).
    const stages: Array<(p: Physics) => void> = [
      checkStatic,
      scanBodies,
      applyGravity,
      findPairs,
      testPairs,
      respond,
      diffContacts,
      (p) => {
        updateContactData(p);
        applyContactComponent(p);
      },
      clearPurged,
      (p) => setTick(p, p.tick + 1),
      integrate,
    ];
    for (let t = 0; t < TICKS; t++) {
      for (const stage of stages) {
        // Alternate which instance goes first, so that each stage runs between two of the other's.
        stage(both[t & 1]);
        stage(both[1 - (t & 1)]);
      }
      for (let k = 0; k < 2; k++) {
        expect(internalsOf(both[k]).responseCount).toBeGreaterThan(0);
        expect(both[k].contactComponent).toBe(true);
        hashes[k].push(hashPhysicsState(both[k]));
      }
    }
    expect(hashes[0]).toEqual(a.hashes);
    expect(hashes[1]).toEqual(b.hashes);
  });

  it('arenas of dynamic spheres stepped tick by tick interleaved hash as each alone', () => {
    const a = aloneArena(ARENA_A);
    const b = aloneArena(ARENA_B);
    const ra: ArenaRun = arenaInOrder(ARENA_A);
    const rb: ArenaRun = arenaInOrder(ARENA_B);
    const ha: string[] = [];
    const hb: string[] = [];
    for (let t = 0; t < TICKS; t++) {
      ra.tick();
      rb.tick();
      ha.push(hashPhysicsState(ra.physics));
      hb.push(hashPhysicsState(rb.physics));
    }
    expect(ha).toEqual(a);
    expect(hb).toEqual(b);
  });
});
