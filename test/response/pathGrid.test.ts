import fc from 'fast-check';
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addBox, addSphere, createPhysics, hashPhysicsState, step, type Physics } from '../../src/index.js';
import { internalsOf } from '../../src/physics/internal.js';
import { responseOf } from '../../src/response/resolve.js';
import { R_CASTS, R_IMPACTS, R_REJECTS } from '../../src/response/responseState.js';
import { buildGas } from '../../src/scenes/gas.js';

/**
 * The response's finer candidates for fast crowds (src/response/pathGrid.ts, paths.ts) and the
 * reject before each sphere–sphere cast (sweptApart.ts): issue 24, item 4 (cost in crowds). They
 * must change no result (the same state, hash and contacts every tick as the response without
 * them) and must bound the work per impact whatever the crowd's size.
 */

/** Everything a tick produces that a game sees: the state hash and the contact list. */
function fingerprint(physics: Physics): string {
  const c = physics.contacts;
  const parts: string[] = [hashPhysicsState(physics)];
  for (let i = 0; i < c.count; i++) {
    parts.push(`${c.a[i]},${c.b[i]},${c.nx[i]},${c.ny[i]},${c.nz[i]},${c.depth[i]},${c.px[i]},${c.py[i]},${c.pz[i]},${c.toi[i]},${c.flags[i]}`);
  }
  return parts.join(';');
}

/** Work of the response per tick over `ticks` ticks: candidates examined (cast or rejected) and casts, per impact. */
function gasWork(spheres: number, ticks: number): { examined: number; casts: number } {
  const gas = buildGas({ spheres, dynamic: true });
  gas.tick();
  gas.tick();
  let impacts = 0, casts = 0, rejects = 0;
  for (let t = 0; t < ticks; t++) {
    gas.tick();
    const w = internalsOf(gas.physics).response!.work;
    impacts += w[R_IMPACTS];
    casts += w[R_CASTS];
    rejects += w[R_REJECTS];
  }
  return { examined: (casts + rejects) / impacts, casts: casts / impacts };
}

describe('the response in fast crowds (issue 24, item 4)', () => {
  it('regression: in the bouncing gas at 250 and 1,000 spheres a prediction examines under 25 candidates and casts under 4 per impact (before: 297 and 806 candidates per impact, each one cast; 31 and 49 with whole-tick path items)', () => {
    for (const n of [250, 1000]) {
      const w = gasWork(n, 3);
      expect(w.examined, `${n} spheres: candidates per impact`).toBeLessThan(25);
      expect(w.casts, `${n} spheres: casts per impact`).toBeLessThan(4);
    }
  });

  it('regression: after each tick of the bouncing gas (250 spheres) no bucket of the path grid holds a piece of a replaced path (before: about a third of the entries a query walked at 1,000 spheres were such pieces, each skipped)', () => {
    const gas = buildGas({ spheres: 250, dynamic: true });
    for (let t = 0; t < 5; t++) {
      gas.tick();
      const g = responseOf(gas.physics).paths;
      expect(g.active).toBe(true);
      let live = 0, stale = 0;
      for (let h = 0; h <= g.tableMask; h++) {
        for (let e = g.head[h]; e >= 0; e = g.next[e]) {
          const i = g.item[e], f = g.first[i];
          if (f >= 0 && f !== g.latest[g.ids[i]]) stale++;
          else live++;
        }
      }
      expect(live, `tick ${t}`).toBeGreaterThan(0);
      expect(stale, `tick ${t}`).toBe(0);
    }
  });

  it('the bouncing gas (250 spheres, 15 ticks) gives the same state hash and contacts every tick with the path grid as without it, and uses it', () => {
    const a = buildGas({ spheres: 250, dynamic: true });
    const b = buildGas({ spheres: 250, dynamic: true });
    responseOf(b.physics).paths.allowed = false;
    let used = 0;
    for (let t = 0; t < 15; t++) {
      a.tick();
      b.tick();
      if (responseOf(a.physics).paths.active) used++;
      expect(responseOf(b.physics).paths.active).toBe(false);
      expect(fingerprint(a.physics), `tick ${t}`).toBe(fingerprint(b.physics));
    }
    expect(used).toBe(15);
  });

  // Random rooms: static walls and floor, kinematic boxes crossing, fast and slow spheres of every
  // response mode (clusters touching at the start among them), gravity, friction, sleep, sensors.
  const sphereArb = fc.record({
    p: fc.tuple(fc.double({ min: 1, max: 11, noNaN: true }), fc.double({ min: 1, max: 11, noNaN: true }), fc.double({ min: 1, max: 11, noNaN: true })),
    dir: fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })),
    speed: fc.oneof({ arbitrary: fc.constant(0), weight: 1 }, { arbitrary: fc.double({ min: 0, max: 5, noNaN: true }), weight: 1 }, { arbitrary: fc.double({ min: 200, max: 900, noNaN: true }), weight: 4 }),
    r: fc.double({ min: 0.2, max: 0.8, noNaN: true }),
    mode: fc.constantFrom('stop' as const, 'slide' as const, 'bounce' as const),
    restitution: fc.double({ min: 0, max: 1, noNaN: true }),
    friction: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1, noNaN: true })),
    sensor: fc.integer({ min: 0, max: 9 }).map((x) => x === 0),
    touching: fc.nat(3),
  });
  const sceneArb = fc.record({
    spheres: fc.array(sphereArb, { minLength: 4, maxLength: 40 }),
    kinematic: fc.array(fc.record({
      p: fc.tuple(fc.double({ min: 2, max: 10, noNaN: true }), fc.double({ min: 2, max: 10, noNaN: true }), fc.double({ min: 2, max: 10, noNaN: true })),
      v: fc.tuple(fc.double({ min: -20, max: 20, noNaN: true }), fc.double({ min: -20, max: 20, noNaN: true }), fc.double({ min: -20, max: 20, noNaN: true })),
      h: fc.double({ min: 0.3, max: 1.5, noNaN: true }),
    }), { maxLength: 3 }),
    gravity: fc.boolean(),
    sleep: fc.boolean(),
  });

  type Room = typeof sceneArb extends fc.Arbitrary<infer T> ? T : never;

  function buildRoom(sc: Room): Physics {
    const physics = createPhysics(createWorld(), { dt: 1 / 60, gravity: sc.gravity ? [0, -9.81, 0] : [0, 0, 0], ...(sc.sleep ? { sleep: {} } : {}) });
    for (let axis = 0; axis < 3; axis++) {
      for (const lo of [true, false]) {
        const c: [number, number, number] = [6, 6, 6];
        c[axis] = lo ? -1 : 13;
        const h: [number, number, number] = [9, 9, 9];
        h[axis] = 1;
        addBox(physics, { position: c, halfExtents: h });
      }
    }
    for (const k of sc.kinematic) addBox(physics, { position: k.p, halfExtents: [k.h, k.h, k.h], velocity: k.v });
    for (const s of sc.spheres) {
      const l = Math.hypot(...s.dir) || 1;
      const velocity: [number, number, number] = [s.dir[0] / l * s.speed, s.dir[1] / l * s.speed, s.dir[2] / l * s.speed];
      const opts = { radius: s.r, response: s.mode, restitution: s.restitution, friction: s.friction, ...(s.sensor ? { sensor: true } : {}) };
      addSphere(physics, { position: s.p, velocity, ...opts });
      // A cluster touching it at the start (exactly the radii sum apart along x, then y).
      for (let k = 0; k < s.touching; k++) {
        const q: [number, number, number] = [s.p[0], s.p[1], s.p[2]];
        q[k % 2] += (k < 2 ? 1 : -1) * 2 * s.r;
        if (q.every((x) => x > s.r && x < 12 - s.r)) addSphere(physics, { position: q, velocity: [-velocity[1], velocity[0], velocity[2]], ...opts });
      }
    }
    return physics;
  }

  /** Steps room `sc` 40 ticks with the path grid and without it, throwing at the first tick they differ; returns the ticks it was used. */
  function samePathResult(sc: Room): number {
    let used = 0;
    const a = buildRoom(sc), b = buildRoom(sc);
    responseOf(b).paths.allowed = false;
    for (let t = 0; t < 40; t++) {
      step(a);
      step(b);
      if (responseOf(a).paths.active) used++;
      if (fingerprint(a) !== fingerprint(b)) throw new Error(`tick ${t}: the path grid changed the result`);
    }
    return used;
  }

  it('property: random rooms (kinematic boxes, clusters touching at the start, sleep, friction, sensors; 40 rooms × 40 ticks) give the same state hash and contacts every tick with the path grid as without it', () => {
    let used = 0;
    fc.assert(fc.property(sceneArb, (sc) => {
      used += samePathResult(sc);
    }), { numRuns: Number(process.env.GAS_RUNS ?? 40), seed: Number(process.env.GAS_SEED ?? 0x9a75), endOnFailure: true });
    if (process.env.GAS_RUNS) console.log("used", used);
    expect(used).toBeGreaterThan(200);
  });

  // Found by running the property 200 times with other seeds (replayed here by fast-check's seed and
  // path). In the first room, at tick 0, the projection took a fast ball's candidates from the path
  // grid while it overlapped one ball by d and five others the dynamic grid reported were within 2d
  // (project.ts nearByPaths looked for them only among the candidates that met its bounds); in the
  // second, at tick 2, two balls resting 8.3e-7 apart missed each other at time 0 (their paths did
  // not meet; predict.ts queryPathPieces now grows the pieces by the rest skin then), and the
  // start-of-tick solve's velocities differed by 1e-16.
  it('regression: two rooms that ended a tick otherwise with the path grid than without it (tick 0: a ball 24 u/s apart; tick 2: velocities 1e-16 apart) give the same results', () => {
    fc.assert(fc.property(sceneArb, (sc) => {
      samePathResult(sc);
    }), { seed: 0x9a75 + 1000, path: '75', endOnFailure: true });
    fc.assert(fc.property(sceneArb, (sc) => {
      samePathResult(sc);
    }), { seed: 0x9a75 + 6000, path: '5', endOnFailure: true });
  });
});
