/**
 * Extremes: coordinates up to 1e6 from the origin, radii down to 1e-4 and speeds up to 10,000 radii
 * per tick. Two kinds of checks for every combination of scale:
 * - pipeline vs brute force: a dense random core of spheres and boxes (rotated or not) around a far
 *   centre, and as many projectiles (spheres and boxes) flying through it at the given speed, stepped
 *   a few ticks and
 *   compared bit for bit with the brute-force model (model.ts) — broadphase bounds, padding, cell
 *   size choice and grid clamping must never drop or invent a pair;
 * - geometry at that scale against closed-form answers: a sphere flying at a box face (also a box
 *   thinner than the sphere, also rotated about the flight axis) and two spheres flying head-on must
 *   be found (no tunnelling) with the analytic toi and normal, to within the rounding of the inputs.
 */
import { createWorld } from 'bitecs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createRng, randomQuat } from '../../src/scenes/prng.js';
import { addBox, addSphere, createPhysics, step } from '../../src/index.js';
import { addBody, check, Model, type Sut, type V3 } from './model.js';
import { report } from '../support/report.js';

const CENTRES = [0, 1e3, 1e6];
const RADII = [1, 1e-2, 1e-4];
const SPEEDS = [0, 1, 100, 10_000]; // radii per tick
const DT = 1 / 60;

/** Contacts seen per combination (all must see some, or the check is vacuous). */
const seen = new Map<string, { contacts: number; swept: number }>();

function cluster(seed: number, centre: number, r: number, speed: number, continuous: boolean): void {
  const key = `${centre}/${r}/${speed}`;
  const tally = seen.get(key) ?? { contacts: 0, swept: 0 };
  seen.set(key, tally);
  const rng = createRng(seed);
  const world = createWorld();
  const physics = createPhysics(world, { capacity: 8, continuous });
  const s: Sut = { world, physics, model: new Model(physics.dt, continuous), buffer: new Uint8Array(0) };
  const sign = () => (rng.next() < 0.5 ? -1 : 1);
  const c: V3 = [sign() * centre, sign() * centre * rng.next(), sign() * centre * rng.next()];
  // A dense core of 6 radii around c; projectiles start up to 0.9 of a tick's motion away and fly
  // through the core at `speed` radii per tick (so high speeds still meet things within a tick).
  const spread = 6 * r;
  const place = (): V3 => [c[0] + rng.range(-spread, spread), c[1] + rng.range(-spread, spread), c[2] + rng.range(-spread, spread)];
  const launch = (): { p: V3; v: V3 | null } => {
    if (speed === 0) return { p: place(), v: null };
    const target = place();
    const dir: V3 = [rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)];
    const len = Math.hypot(dir[0], dir[1], dir[2]) || 1;
    const m = speed * r;
    const back = speed <= 1 ? rng.range(0, 2) * r : rng.range(0.1, 0.9) * m;
    const p: V3 = [target[0] - (dir[0] / len) * back, target[1] - (dir[1] / len) * back, target[2] - (dir[2] / len) * back];
    const k = m / len / DT;
    return { p, v: [dir[0] * k, dir[1] * k, dir[2] * k] };
  };
  for (let i = 0; i < 30; i++) {
    const moving = i % 2 === 1;
    const { p, v } = moving ? launch() : { p: place(), v: null };
    if (i % 5 === 4) {
      const h: V3 = [r * rng.range(0.5, 3), r * rng.range(0.5, 3), r * rng.range(0.05, 3)];
      const q = rng.next() < 0.5 ? randomQuat(rng) : null;
      addBody(s, { shape: 'box', position: p, velocity: v, radius: 0, halfExtents: h, rotation: q, sensor: false });
    } else {
      const radius = r * rng.range(0.5, 2);
      addBody(s, { shape: 'sphere', position: p, velocity: v, radius, halfExtents: [0, 0, 0], rotation: null, sensor: false });
    }
  }
  for (let t = 0; t < 4; t++) {
    step(physics);
    s.model.step();
    check(s);
    tally.contacts += s.model.contacts.length;
    tally.swept += s.model.contacts.filter((x) => x.toi > 0).length;
  }
}

describe('extremes: pipeline vs brute force', () => {
  afterAll(() => {
    report('[fuzz/extremes] contacts (swept) per |centre|/radius/speed: ' + [...seen].map(([k, v]) => `${k}: ${v.contacts} (${v.swept})`).join(', '));
  });
  for (const centre of CENTRES) {
    for (const r of RADII) {
      for (const speed of SPEEDS) {
        it(`|centre| ${centre}, radius ${r}, ${speed} radii/tick`, () => {
          fc.assert(fc.property(fc.integer({ min: 1, max: 1 << 30 }), fc.boolean(), (seed, continuous) => cluster(seed, centre, r, speed, continuous)), { numRuns: 12, seed: 31 });
          const tally = seen.get(`${centre}/${r}/${speed}`)!;
          expect(tally.contacts).toBeGreaterThan(10);
          if (speed > 0) expect(tally.swept).toBeGreaterThan(0);
        });
      }
    }
  }
});

/** Tolerance on toi: the inputs' rounding (a few ulps of the coordinates) over the tick's motion. */
function toiTolerance(coord: number, motion: number): number {
  return (8 * Number.EPSILON * (Math.abs(coord) + 1)) / motion + 1e-12;
}

describe('extremes: no tunnelling, analytic toi and normal', () => {
  for (const centre of CENTRES) {
    for (const r of RADII) {
      for (const speed of SPEEDS.slice(1)) {
        it(`|centre| ${centre}, radius ${r}, ${speed} radii/tick`, () => {
          const motion = speed * r;
          for (const f of [0.05, 0.5, 0.95]) {
            for (const [h, rotated] of [[r, false], [r, true], [r / 10, false]] as const) {
              const world = createWorld();
              const physics = createPhysics(world);
              // Box face at x = centre − h; the sphere starts f·motion + r before it.
              const x0 = centre - h - r - f * motion;
              const half = Math.SQRT1_2;
              const box = addBox(physics, { position: [centre, centre, -centre], halfExtents: [h, 4 * r, 4 * r], ...(rotated ? { rotation: [half, 0, 0, half] } : {}) });
              const sphere = addSphere(physics, { position: [x0, centre, -centre], velocity: [motion / DT, 0, 0], radius: r });
              step(physics);
              const l = physics.contacts;
              expect(l.count, `sphere–box contact (f ${f}, h ${h}, rotated ${rotated})`).toBe(1);
              expect([l.a[0], l.b[0]]).toEqual([sphere, box]);
              const expected = (centre - h - r - x0) / motion;
              expect(Math.abs(l.toi[0] - expected), `toi ${l.toi[0]} vs ${expected}`).toBeLessThanOrEqual(toiTolerance(centre, motion));
              expect(l.nx[0]).toBeCloseTo(-1, 9);
            }
            // Two spheres head-on, each moving motion/2 per tick, gap f·motion.
            const world = createWorld();
            const physics = createPhysics(world);
            const a = addSphere(physics, { position: [centre - r - (f * motion) / 2, -centre, centre], velocity: [motion / 2 / DT, 0, 0], radius: r });
            const b = addSphere(physics, { position: [centre + r + (f * motion) / 2, -centre, centre], velocity: [-motion / 2 / DT, 0, 0], radius: r });
            step(physics);
            const l = physics.contacts;
            expect(l.count, `sphere–sphere contact (f ${f})`).toBe(1);
            expect([l.a[0], l.b[0]]).toEqual([a, b]);
            expect(Math.abs(l.toi[0] - f), `toi ${l.toi[0]} vs ${f}`).toBeLessThanOrEqual(toiTolerance(centre, motion));
            expect(l.nx[0]).toBeCloseTo(-1, 9);
          }
        });
      }
    }
  }
});
