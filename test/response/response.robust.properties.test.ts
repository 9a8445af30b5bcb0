/**
 * Properties of the response against moving bodies (issue 24, part 1), over random scenes built
 * with the public API: kinematic carriers, pushers, corridors and crowds in a room with kinematic
 * boxes. At the end of every tick, measured with the independent point–box distance of
 * test/support/response.ts: no dynamic sphere inside a static box (1e-9 of its radius); none inside
 * a kinematic box unless it is also touching a static box (squeezed); no two dynamic spheres
 * overlapping by more than 1 % of their radii sum. Scene counts reported with BITECS_COLLIDE_REPORT=1.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { report } from '../support/report.js';
import { boxDistance } from '../support/response.js';
import { depths, dynamicSphere, emptyScene, kinematicBox, staticBox, type Scene } from '../support/responseScenes.js';
import { addSphere, setPosition, setVelocity, step } from '../../src/index.js';
import { internalsOf } from '../../src/physics/internal.js';
import { R_PROJECTED } from '../../src/response/responseState.js';
import { PROJECT_PASSES, PROJECT_YIELD_PASSES } from '../../src/response/project.js';

const BOX_TOL = 1e-9, SPHERE_TOL = 0.01;
const modeArb = fc.constantFrom('stop' as const, 'slide' as const, 'bounce' as const);
const num = (min: number, max: number) => fc.double({ min, max, noNaN: true });
let scenes = 0;
afterAll(() => report(`response robustness properties: ${scenes} random scenes`));

/** Steps `s` `ticks` times, checking the three properties after each tick. */
function check(s: Scene, ticks: number, squeezeAllowed: boolean): void {
  scenes++;
  for (let t = 0; t < ticks; t++) {
    step(s.physics);
    const d = depths(s);
    expect(d.statics).toBeLessThanOrEqual(BOX_TOL);
    expect(squeezeAllowed ? d.unsqueezed : d.kinematics).toBeLessThanOrEqual(BOX_TOL);
    expect(d.spheres).toBeLessThanOrEqual(SPHERE_TOL);
  }
}

interface Heap {
  seed: number;
  n: number;
  iters: number;
  lift: boolean;
  v: number;
  spread: number;
  mixed: boolean;
  e: number;
  mu: number;
  flat: boolean;
  sleep: boolean;
}

/**
 * The heaps property's scene: a box at `v` pushing `n` balls (radius 0.2–0.5, masses r³ × 2^±spread)
 * along a floor, or lifting them (`lift`), stacked 4 a row (one plane when `flat`). Seeded linear
 * congruential draws.
 */
function heap(o: Heap): Scene {
  const modes = ['bounce', 'slide', 'stop'] as const;
  let seed = o.seed >>> 0;
  const rnd = (): number => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 4294967296;
  const s = emptyScene({ gravity: [0, -9.81, 0], maxIterations: o.iters, capacity: 256, ...(o.sleep ? { sleep: {} } : {}) });
  if (!o.lift) staticBox(s, [0, -1, 0], [1000, 1, 1000]);
  kinematicBox(s, o.lift ? [0, -0.5, 0] : [-3, 2, 0], o.lift ? [4, 0.5, 4] : [0.5, 2, 4], o.lift ? [0, o.v, 0] : [o.v, 0, 0]);
  for (let i = 0; i < o.n; i++) {
    const r = 0.2 + 0.3 * rnd(), mass = r ** 3 * 2 ** (o.spread * (2 * rnd() - 1));
    const x = -2 + (i % 4) * 1.02 + 0.01 * rnd(), y = 0.52 + Math.floor(i / (o.flat ? 4 : 16)) * 1.02;
    const z = o.flat ? 0 : -1.5 + (Math.floor(i / 4) % 4) * 1.02 + 0.01 * rnd();
    s.spheres.push(addSphere(s.physics, { position: [x, y, z], velocity: [0, 0, 0], radius: r, mass, response: modes[o.mixed ? Math.floor(rnd() * 3) : 0], restitution: o.e, friction: o.mu }));
  }
  return s;
}

/**
 * Adds `n` balls (radius 0.2–0.4, mass r³, BOUNCE e = 0) at random places in x ∈ [−2, 2.5], y ∈
 * [0.45, 2.95], z ∈ [−1.5, 1.5], left of a wall at x = 3, not overlapping each other (each place drawn
 * again at most `tries` times; then it stays). Seeded linear congruential draws.
 */
function ballsBeforeWall(s: Scene, n: number, seed: number, tries: number): void {
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const placed: number[][] = [];
  for (let i = 0; i < n; i++) {
    const r = 0.2 + 0.2 * rnd();
    let c: number[];
    let k = 0;
    do {
      c = [-2 + 4.5 * rnd(), 0.45 + 2.5 * rnd(), -1.5 + 3 * rnd()];
      k++;
    } while ((placed.some((q) => Math.hypot(c[0] - q[0], c[1] - q[1], c[2] - q[2]) < r + q[3] + 1e-3) || c[0] + r > 3) && k < tries);
    placed.push([c[0], c[1], c[2], r]);
    s.spheres.push(addSphere(s.physics, { position: [c[0], c[1], c[2]], radius: r, mass: r ** 3, velocity: [0, 0, 0], response: 'bounce', restitution: 0 }));
  }
}

/**
 * A kinematic box (3 u/s along x) driving three balls (radius 0.5, 0.01 apart, on a floor) into a
 * wall: the row needs 3 between them and is squeezed from tick 20; the box's face passes the last
 * ball's centre at tick 29 and goes on into the wall.
 */
function threeBallsIntoWall(): Scene {
  scenes++;
  const s = emptyScene({ gravity: [0, -9.81, 0] });
  staticBox(s, [0, -1, 0], [50, 1, 50]);
  staticBox(s, [3, 1, 0], [0.5, 2, 2]);
  kinematicBox(s, [-2, 1, 0], [0.5, 1, 1], [3, 0, 0]);
  for (let i = 0; i < 3; i++) dynamicSphere(s, [2 - 1.01 * i, 0.5, 0], 0.5, [0, 0, 0], 'bounce', 0);
  return s;
}

/**
 * Expects every sphere of `s` inside a kinematic box (beyond 1e-9 of its radius) at the end of the
 * tick to be reported in the contact list with that box and its depth (within 1e-9 of the radius),
 * as rule 2 says; returns how many it checked.
 */
function expectDepthsReported(s: Scene): number {
  const P = s.physics.components.Position, r = s.physics.components.Sphere.radius, c = s.physics.contacts;
  let checked = 0;
  for (const a of s.spheres) {
    for (const box of s.kinematics) {
      const depth = r[a] - boxDistance([P.x[a], P.y[a], P.z[a]], [P.x[box.eid], P.y[box.eid], P.z[box.eid]], box.h, box.q);
      if (!(depth > 1e-9 * r[a])) continue;
      let reported = -1;
      for (let i = 0; i < c.count; i++) if (c.a[i] === a && c.b[i] === box.eid) reported = c.depth[i];
      expect(Math.abs(reported - depth)).toBeLessThanOrEqual(1e-9 * r[a]);
      checked++;
    }
  }
  return checked;
}

interface RowOptions { n: number; v: number; squeeze: number; spread: number; equal: boolean; lifted: boolean; iters: number; seed: number; sleep?: boolean }

/**
 * A kinematic box (`v` u/s along x, face from x = −0.5) driving a row of `n` balls (BOUNCE e = 0,
 * mass r³ × 2^±spread) along a floor into a wall at x = 6; it is to stop (the caller zeroes its
 * velocity) when its face reaches `stop`, `squeeze` of the least radius closer to the wall than the
 * row's length `row`: radii equal or drawn in 0.2–0.5, on the floor in a line, or dropped from up to
 * 0.3 above it and off the line by up to 0.2; the row from the wall back, 0.01 apart. Seeded draws.
 */
interface Row { s: Scene; box: number; row: number; stop: number; ticks: number }

function rowIntoWall(o: RowOptions): Row {
  scenes++;
  let q = o.seed;
  const rand = (): number => ((q = (Math.imul(q, 1103515245) + 12345) | 0) >>> 0) / 2 ** 32;
  const s = emptyScene({ gravity: [0, -9.81, 0], maxIterations: o.iters, ...(o.sleep === true ? { sleep: {} } : {}) });
  staticBox(s, [0, -1, 0], [50, 1, 50]);
  staticBox(s, [6.5, 2, 0], [0.5, 2, 2]);
  const box = kinematicBox(s, [-1, 1, 0], [0.5, 1, 1.5], [o.v, 0, 0]);
  let x = 6, row = 0, least = Infinity;
  const r0 = 0.2 + 0.3 * rand();
  for (let i = 0; i < o.n; i++) {
    const r = o.equal ? r0 : 0.2 + 0.3 * rand();
    row += 2 * r;
    least = Math.min(least, r);
    x -= r;
    const y = r + (o.lifted ? 0.3 * rand() : 0), z = o.lifted ? 0.4 * (rand() - 0.5) : 0;
    s.spheres.push(addSphere(s.physics, { position: [x, y, z], radius: r, mass: r ** 3 * 2 ** (o.spread * (2 * rand() - 1)), velocity: [0, 0, 0], response: 'bounce', restitution: 0 }));
    x -= r + 0.01;
  }
  const stop = 6 - row + o.squeeze * least;
  return { s, box, row, stop, ticks: Math.ceil(((stop + 0.5) / o.v) * 60) + 30 };
}

/** Steps the row `r` (rowIntoWall) `ticks` times, stopping its box once it reaches `r.stop`; calls `after` after each tick. */
function stepRow(r: Row, ticks: number, after: () => void): void {
  const P = r.s.physics.components.Position;
  for (let t = 0; t < ticks; t++) {
    if (P.x[r.box] + 0.5 >= r.stop) setVelocity(r.s.physics, r.box, [0, 0, 0]);
    step(r.s.physics);
    after();
  }
}

/**
 * The crowd a review crossed with two boxes (issue 24): 60 balls (radius 0.2–0.35, mass r³, BOUNCE
 * e = 0.2, friction 0.3) dropped in a 6 × 6 room under a ceiling, two kinematic boxes crossing it at
 * 3 and 2.1 u/s (each driving through a wall); seeded draws as the review's.
 */
function roomCrossed(seed: number): Scene {
  scenes++;
  let q = seed;
  const rnd = (): number => (q = (q * 1103515245 + 12345) % 2147483648) / 2147483648;
  const s = emptyScene({ gravity: [0, -9.81, 0], maxIterations: 4 });
  const W = 3;
  staticBox(s, [0, -1, 0], [50, 1, 50]);
  staticBox(s, [0, 3.5, 0], [50, 0.5, 50]);
  for (const [x, z, hx, hz] of [[W + 0.5, 0, 0.5, W + 1], [-W - 0.5, 0, 0.5, W + 1], [0, W + 0.5, W + 1, 0.5], [0, -W - 0.5, W + 1, 0.5]]) staticBox(s, [x, 1.5, z], [hx, 2.5, hz]);
  kinematicBox(s, [-5, 1, -1], [0.5, 1, 0.8], [3, 0, 0]);
  kinematicBox(s, [1, 1, 5], [0.8, 1, 0.5], [0, 0, -3 * 0.7]);
  const placed: number[][] = [];
  for (let i = 0; i < 60; i++) {
    const r = 0.2 + 0.15 * rnd();
    let c: number[];
    let tries = 0;
    do {
      c = [-W + r + (2 * W - 2 * r) * rnd(), r + 0.01 + 2 * rnd(), -W + r + (2 * W - 2 * r) * rnd(), r];
      tries++;
    } while (placed.some((p) => Math.hypot(c[0] - p[0], c[1] - p[1], c[2] - p[2]) < r + p[3] + 1e-3) && tries < 500);
    if (tries >= 500) continue;
    placed.push(c);
    s.spheres.push(addSphere(s.physics, { position: [c[0], c[1], c[2]], radius: r, mass: r ** 3, velocity: [0, 0, 0], response: 'bounce', restitution: 0.2, friction: 0.3 }));
  }
  return s;
}

describe('random kinematic carriers, pushers, corridors and crowds', () => {
  it('carriers: a platform moving up (and sideways) with a column of spheres on it', () => {
    const arb = fc.record({ n: fc.integer({ min: 1, max: 6 }), r: num(0.1, 1), vy: num(0.2, 8), vx: num(-2, 2), mode: modeArb, g: fc.boolean(), iters: fc.constantFrom(1, 2, 4, 16) });
    fc.assert(fc.property(arb, (o) => {
      const s = emptyScene({ gravity: o.g ? [0, -9.81, 0] : [0, 0, 0], maxIterations: o.iters });
      kinematicBox(s, [0, -0.5, 0], [3, 0.5, 3], [o.vx, o.vy, 0]);
      for (let i = 0; i < o.n; i++) dynamicSphere(s, [0, o.r + 2 * o.r * i * 1.001, 0], o.r, [0, 0, 0], o.mode);
      check(s, 60, false);
    }), { seed: 24, numRuns: 40 });
  });

  it('pushers: a box pushing a row of spheres along a floor', () => {
    const arb = fc.record({ n: fc.integer({ min: 1, max: 6 }), r: num(0.2, 0.8), v: num(0.2, 20), mode: modeArb, g: fc.boolean(), gap: num(0, 0.5) });
    fc.assert(fc.property(arb, (o) => {
      const s = emptyScene({ gravity: o.g ? [0, -9.81, 0] : [0, 0, 0] });
      staticBox(s, [0, -0.5, 0], [1000, 0.5, 100]);
      kinematicBox(s, [-1, 1.5, 0], [0.5, 1.5, 1.5], [o.v, 0, 0]);
      for (let i = 0; i < o.n; i++) dynamicSphere(s, [o.r + i * (2 * o.r + o.gap), o.r, 0], o.r, [0, 0, 0], o.mode);
      check(s, 60, false);
    }), { seed: 25, numRuns: 40 });
  });

  it('heaps: a box pushing a heap of up to 30 spheres along a floor, or lifting one, with their masses, modes and budget drawn (regression: 11 of 60 such heaps merged two spheres beyond 1 %, up to 29 %, before the projection pinned by levels and ran past 8 passes; a ball the box walked over stayed inside it)', () => {
    // The hostile review's scenes of issue 24 (docs/response.md, Limits). Nothing squeezes these heaps
    // (no wall ahead, no ceiling): no sphere may end inside the kinematic box either (regression: at
    // 30–60 u/s a capped ball the box walked over was pushed out through the box's bottom into the
    // floor and stayed inside, 24 of 300 such heaps).
    const arb = fc.record({
      seed: fc.integer({ min: 0, max: 2 ** 30 }), n: fc.integer({ min: 2, max: 30 }), iters: fc.constantFrom(1, 2, 4), lift: fc.boolean(), v: num(0.5, 60),
      spread: fc.constantFrom(0, 3, 6.6), mixed: fc.boolean(), e: fc.constantFrom(0, 0.5, 1), mu: fc.constantFrom(0, 0.5), flat: fc.boolean(), sleep: fc.boolean(),
    });
    fc.assert(fc.property(arb, (o) => check(heap(o), 150, false)), { seed: 28, numRuns: 60 });
  });

  // Found by running the heaps property with other seeds at five times its runs (six seeds of 300
  // heaps: three stopped at one of these). Masses 2^±6.6 with maxIterations 1 or 2: a light ball
  // between heavier ones made almost all of each separation, undoing one overlap into the other, so
  // the passes ended all 128 with corrections of 2e-3 to 1.4e-2 of a radii sum shrinking by about
  // 1e-3 a pass; then the yield moved balls up to 1.1e-2 of their radius into the pushing box (no
  // static body behind them), or left an elevator's heap 1.03 % apart. Past the first passes the
  // shares are now kept within 1 : PROJECT_SHARE_RATIO (project.ts).
  it('regression: heaps of masses 2^±6.6 whose passes did not converge (a light ball between heavy ones) leave no ball inside the pushing box and no two beyond 1 % (balls up to 1.1e-2 of their radius inside the box, or two 1.03 % apart, before the shares were bounded)', () => {
    check(heap({ seed: 0, n: 15, iters: 1, lift: false, v: 1.5007282580053463, spread: 6.6, mixed: false, e: 0, mu: 0.5, flat: true, sleep: false }), 150, false);
    check(heap({ seed: 502412616, n: 14, iters: 1, lift: false, v: 0.5000000000000007, spread: 6.6, mixed: false, e: 0, mu: 0, flat: true, sleep: false }), 150, false);
    check(heap({ seed: 97644597, n: 24, iters: 2, lift: true, v: 24.44346172483338, spread: 6.6, mixed: false, e: 0.5, mu: 0, flat: true, sleep: false }), 150, false);
  });

  // Found with the shares bounded, in 2,000 random heaps of masses 2^±6.6 with maxIterations 1 or 2
  // (2 of them; 12 before the bound): a column of balls along the pusher's face, its top ball (or two
  // of its balls) touching the face and so pinned in every direction, pressed the balls between into
  // the floor pass after pass; they could leave only sideways, by the slant of their contacts, and the
  // yield then moved balls up to 1.7e-2 of their radius into the box. Past the first passes a pin now
  // holds a ball only against a move back into what pinned it (project.ts `heldAlong`).
  it('regression: heaps with a column of balls along the pusher\'s face leave no ball inside it (up to 1.7e-2 of a radius before pins held only against the way back, past the first passes)', () => {
    check(heap({ seed: 276722893, n: 11, iters: 1, lift: false, v: 9.25251955469139, spread: 6.6, mixed: false, e: 0.5, mu: 0.5, flat: true, sleep: false }), 150, false);
    check(heap({ seed: 579166471, n: 29, iters: 1, lift: false, v: 13.132232272182591, spread: 6.6, mixed: true, e: 0.5, mu: 0, flat: true, sleep: false }), 150, false);
    check(heap({ seed: 623552043, n: 11, iters: 2, lift: false, v: 27.45994203456212, spread: 6.6, mixed: false, e: 0.5, mu: 0.5, flat: true, sleep: false }), 150, false);
  });

  it('regression: a box at 3 u/s driving 30 balls against a wall and stopping 1 from it leaves no two of them overlapping beyond 1 % (was 0.32 with the pinning levels alone, 0.031 before them)', () => {
    for (const seed of [1, 3]) {
      const s = emptyScene({ gravity: [0, -9.81, 0] });
      staticBox(s, [0, -1, 0], [50, 1, 50]);
      staticBox(s, [3.25, 3, 0], [0.25, 3, 3]);
      const box = kinematicBox(s, [-3, 1.5, 0], [0.5, 1.5, 2], [3, 0, 0]);
      ballsBeforeWall(s, 30, seed, Infinity);
      const P = s.physics.components.Position;
      scenes++;
      for (let t = 0; t < 120; t++) {
        if (P.x[box] > 1.5) setVelocity(s.physics, box, [0, 0, 0]);
        step(s.physics);
        const d = depths(s);
        expect(d.statics).toBeLessThanOrEqual(BOX_TOL);
        expect(d.spheres).toBeLessThanOrEqual(SPHERE_TOL);
      }
    }
  });

  it('a ball held between two kinematic boxes closing on it (no room, no static body) costs the projection three passes a tick (all 128 before)', () => {
    const s = emptyScene({ gravity: [0, -9.81, 0] });
    staticBox(s, [0, -1, 0], [50, 1, 50]);
    const a = kinematicBox(s, [-0.9, 1, 0], [0.5, 1, 1], [1, 0, 0]);
    const b = kinematicBox(s, [0.9, 1, 0], [0.5, 1, 1], [-1, 0, 0]);
    dynamicSphere(s, [0, 0.5, 0], 0.5, [0, 0, 0], 'bounce', 0);
    let most = 0;
    for (let t = 0; t < 30; t++) {
      setPosition(s.physics, a, [-0.9, 1, 0]);
      setPosition(s.physics, b, [0.9, 1, 0]);
      step(s.physics);
      most = Math.max(most, internalsOf(s.physics).response!.work[R_PROJECTED]);
    }
    // Two moves a pass (out of each box). A squeeze holds its depth: the second pass leaves the ball
    // where the first did (PROJECT_STILL) and is the last, then the last kinematic phase: 6. Every pass
    // to the limit was 258 = 2 × (PROJECT_MAX_PASSES + 1) (18 with at most 8 passes); a rule that
    // stopped the passes on a lack of progress in the corrections cut it to 66 but left a crowd
    // squeezed into a corner overlapping (the corner regression below).
    expect(most).toBeLessThanOrEqual(6);
  });

  it('a kinematic box driving three balls in a row into a wall (no room) costs the projection a few passes a tick (1,151 moves when every pass ran), none inside the wall', () => {
    const s = threeBallsIntoWall();
    let most = 0;
    for (let t = 0; t < 50; t++) {
      step(s.physics);
      expect(depths(s).statics).toBeLessThanOrEqual(BOX_TOL);
      most = Math.max(most, internalsOf(s.physics).response!.work[R_PROJECTED]);
    }
    // 17 to 24 moves a tick with the still pass (PROJECT_STILL), at most 20 with the yield.
    expect(most).toBeLessThanOrEqual(3 * 3 * PROJECT_PASSES);
  });

  // Before the yield (project.ts) the squeeze ended between two of the balls: 0.05 of their radii sum
  // as soon as the box squeezed them, 0.50 by tick 30, merged when the box went on through the wall.
  it('regression: a kinematic box driving three balls in a row into a wall (no room) squeezes them into the box, not into each other (0.05 to 0.50 of a radii sum before the yield), and reports the depth in the box as a contact', () => {
    const s = threeBallsIntoWall();
    let reported = 0;
    for (let t = 0; t < 50; t++) {
      step(s.physics);
      expect(depths(s).spheres).toBeLessThanOrEqual(SPHERE_TOL);
      reported += expectDepthsReported(s);
    }
    expect(reported).toBeGreaterThan(0);
  });

  it('rows squeezed against a wall: a box drives a row of spheres along a floor into a wall and stops when it has squeezed them by up to a radius; no two spheres overlap beyond 1 % (regression: up to 0.5 of a radii sum before the yield)', () => {
    const arb = fc.record({ n: fc.integer({ min: 2, max: 8 }), v: num(0.5, 30), squeeze: num(0, 1), spread: fc.constantFrom(0, 3), equal: fc.boolean(), lifted: fc.boolean(), iters: fc.constantFrom(1, 4), seed: fc.integer() });
    fc.assert(fc.property(arb, (o) => {
      const r = rowIntoWall(o);
      const s = r.s;
      stepRow(r, r.ticks, () => {
        const d = depths(s);
        expect(d.statics).toBeLessThanOrEqual(BOX_TOL);
        expect(d.spheres).toBeLessThanOrEqual(SPHERE_TOL);
        // Inside the box only when the row no longer fits between it and the wall (squeezed through
        // the spheres between: the one in the box need not touch the wall or the floor).
        if (6 - (s.physics.components.Position.x[r.box] + 0.5) >= r.row) expect(d.kinematics).toBeLessThanOrEqual(BOX_TOL);
      });
    }), { seed: 29, numRuns: 40 });
  });

  it('regression: a box stopped after squeezing a row of four balls of masses 2^±3 against a wall costs the projection a few passes a tick (its moves undo one another every second pass: 1,598 moves a tick when all 128 passes ran)', () => {
    const r = rowIntoWall({ n: 4, v: 2.56828118788497, squeeze: 0, spread: 3, equal: true, lifted: false, iters: 1, seed: 26 });
    const s = r.s;
    let most = 0;
    stepRow(r, 120, () => {
      expect(depths(s).spheres).toBeLessThanOrEqual(SPHERE_TOL);
      most = Math.max(most, internalsOf(s.physics).response!.work[R_PROJECTED]);
    });
    expect(most).toBeLessThanOrEqual(4 * 4 * PROJECT_PASSES);
  });

  it('regression: a box stopped past its squeeze of a row of seven balls (masses 2^±3, maxIterations 1): the passes stop on a cycle of three (2,894 moves a tick when all 128 passes ran), and no longer cycle with a longer period (2,541 moves a tick before the shares were bounded)', () => {
    // From the rows property run 800 times (seed 29): in ticks 7, 9, 11 and 13 the passes cycled
    // with period 3 (passStill stopped cycles of 1 and 2 passes only) to PROJECT_MAX_PASSES, then the
    // yield. Then 4 passes, then the yield's 32: 697 moves at most, the row 1.0 % overlapped at the
    // end of ticks 7 to 13. With the yield run on while it converges (PROJECT_YIELD_MAX), ticks 7 and
    // 9 ended 0.12 % overlapped after about 64 yield passes (1,308 moves), and in ticks 11 and 12 the
    // passes cycled with a longer period to the limit (2,541 moves). With the shares bounded past the
    // first passes (PROJECT_SHARE_RATIO): 617 moves at most (tick 7), the row 1e-6 overlapped.
    const r = rowIntoWall({ n: 7, v: 21.230478471476136, squeeze: 0, spread: 3, equal: true, lifted: false, iters: 1, seed: -1903393762 });
    const s = r.s;
    let most = 0;
    stepRow(r, 16, () => {
      most = Math.max(most, internalsOf(s.physics).response!.work[R_PROJECTED]);
    });
    expect(most).toBeLessThanOrEqual(7 * 7 * PROJECT_PASSES + 7 * 4 * 2 * PROJECT_YIELD_PASSES);
  });

  it('regression: the yield runs on while it converges: the rows property\'s counterexamples at 800 runs (seeds 29 and 7) end no tick with two balls overlapping beyond 1 % (1.0003 % and 1.0000000000004 % with the yield\'s 32 passes; 0.12 % and 0.20 % now)', () => {
    const cases = [
      { n: 7, v: 21.227940888784108, squeeze: 0, spread: 3, equal: true, lifted: false, iters: 1, seed: -1903393762 },
      { n: 8, v: 2.058404788971272, squeeze: 0, spread: 3, equal: true, lifted: false, iters: 1, seed: -819500080 },
      // Found while choosing the rule: stopping on a rate of 0.95 per two passes left 1.014 % here.
      { n: 8, v: 3.4381691585922796, squeeze: 0, spread: 3, equal: true, lifted: false, iters: 1, seed: -819503158 },
    ];
    for (const o of cases) {
      const r = rowIntoWall(o);
      const s = r.s;
      stepRow(r, r.ticks, () => {
        expect(depths(s).spheres).toBeLessThanOrEqual(SPHERE_TOL);
      });
    }
  });

  it('regression: a box stopped after squeezing a row of seven equal balls (masses 2^±3, maxIterations 4) by half a radius against a wall leaves no two beyond 1 % (1.86 % before the shares were bounded)', () => {
    // From the rows property run with other seeds: the passes ended tick 10 with the row 1.86 %
    // overlapped (2.04 % before the weight guess's launch bound and the longer yield); now 1.4e-5.
    const r = rowIntoWall({ n: 7, v: 13.936062570777722, squeeze: 0.4975035283714533, spread: 3, equal: true, lifted: false, iters: 4, seed: -270736895 });
    const s = r.s;
    stepRow(r, r.ticks, () => {
      expect(depths(s).spheres).toBeLessThanOrEqual(SPHERE_TOL);
    });
  });

  it('regression: a box that stops after squeezing two balls against a wall by 1 % of their radii sum leaves them apart (the start-of-tick push out of the box at rest moved one into the other, and nothing checked it)', () => {
    const r = rowIntoWall({ n: 2, v: 0.5850252883198537, squeeze: 0, spread: 0, equal: true, lifted: false, iters: 4, seed: 0 });
    const s = r.s;
    stepRow(r, r.ticks, () => {
      expect(depths(s).spheres).toBeLessThanOrEqual(1e-6);
    });
  });

  it('regression: a box that turns back after squeezing two balls against a wall leaves them apart (the start-of-tick push out of the box moving away moved the ball left in it into the other one, 0.25 of their radii sum, and nothing checked it), and a ball in the box is reported with its depth at the end of the tick', () => {
    const o = { n: 2, v: 10, squeeze: 0.3, spread: 0, equal: true, lifted: false, iters: 4, seed: 5 };
    const { s, box, stop, ticks } = rowIntoWall(o);
    const P = s.physics.components.Position;
    let turned = false;
    for (let t = 0; t < ticks; t++) {
      if (!turned && P.x[box] + 0.5 >= stop) {
        setVelocity(s.physics, box, [-o.v, 0, 0]);
        turned = true;
      }
      step(s.physics);
      expect(depths(s).spheres).toBeLessThanOrEqual(SPHERE_TOL);
      expectDepthsReported(s);
    }
  });

  it('regression: a ball left in a box that stopped squeezing a row against a wall keeps its contact with the box, with its depth, when it falls asleep (a sleeper\'s contact with a kinematic body at rest was dropped)', () => {
    const r = rowIntoWall({ n: 4, v: 2.56828118788497, squeeze: 0.5, spread: 3, equal: true, lifted: false, iters: 1, seed: 26, sleep: true });
    const s = r.s;
    const asleep = internalsOf(s.physics).sleep!.asleep;
    let sleepingChecked = 0;
    stepRow(r, 400, () => {
      expect(depths(s).spheres).toBeLessThanOrEqual(SPHERE_TOL);
      if (expectDepthsReported(s) > 0 && s.spheres.some((a) => asleep[a] === 1)) sleepingChecked++;
    });
    expect(sleepingChecked).toBeGreaterThan(0);
  });

  it('regression: a box driving rows of balls into a static sphere (a round pillar) leaves none inside it and no two overlapping beyond 1 % (the projection swept its moves against static boxes only: 49 of 60 rows ended up to 0.43 of a radius inside the sphere)', () => {
    for (let seed = 1; seed <= 60; seed++) {
      let q = seed;
      const rand = (): number => ((q = (Math.imul(q, 1103515245) + 12345) | 0) >>> 0) / 2 ** 32;
      const s = emptyScene({ gravity: [0, -9.81, 0], maxIterations: rand() < 0.5 ? 1 : 4 });
      scenes++;
      staticBox(s, [0, -1, 0], [50, 1, 50]);
      const R = 3;
      const pillar = addSphere(s.physics, { position: [6 + R, 1, (rand() - 0.5) * 2], radius: R });
      const v = 1 + 10 * rand();
      const box = kinematicBox(s, [-1, 1, 0], [0.5, 1, 1.5], [v, 0, 0]);
      const n = 2 + Math.floor(rand() * 5);
      let x = 5.5;
      for (let i = 0; i < n; i++) {
        const r = 0.2 + 0.3 * rand();
        x -= r;
        s.spheres.push(addSphere(s.physics, { position: [x, r, (rand() - 0.5) * 0.4], radius: r, mass: r ** 3 * 2 ** (3 * (2 * rand() - 1)), velocity: [0, 0, 0], response: 'bounce', restitution: 0 }));
        x -= r + 0.01;
      }
      const P = s.physics.components.Position, radius = s.physics.components.Sphere.radius;
      const stop = 5 + 0.5 * rand();
      for (let t = 0; t < 200; t++) {
        if (P.x[box] + 0.5 > stop) setVelocity(s.physics, box, [0, 0, 0]);
        step(s.physics);
        expect(depths(s).spheres).toBeLessThanOrEqual(SPHERE_TOL);
        for (const a of s.spheres) {
          const inside = radius[a] + R - Math.hypot(P.x[a] - P.x[pillar], P.y[a] - P.y[pillar], P.z[a] - P.z[pillar]);
          expect(inside).toBeLessThanOrEqual(BOX_TOL * radius[a]);
        }
      }
    }
  });

  it('regression: two kinematic boxes closing on a row of three balls (no static body) squeeze them into the boxes, not into one another (0.97 of a radii sum and 1,026 projection moves a tick before the yield)', () => {
    const s = emptyScene({});
    kinematicBox(s, [-2.5, 0, 0], [0.5, 1, 1], [1, 0, 0]);
    kinematicBox(s, [2.5, 0, 0], [0.5, 1, 1], [-1, 0, 0]);
    for (let i = 0; i < 3; i++) dynamicSphere(s, [-1.01 + 1.01 * i, 0, 0], 0.5, [0, 0, 0], 'bounce', 0);
    scenes++;
    let most = 0, squeezed = 0;
    for (let t = 0; t < 60; t++) {
      step(s.physics);
      const d = depths(s);
      expect(d.spheres).toBeLessThanOrEqual(SPHERE_TOL);
      if (d.kinematics > BOX_TOL) squeezed++;
      most = Math.max(most, internalsOf(s.physics).response!.work[R_PROJECTED]);
    }
    expect(squeezed).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(3 * 3 * PROJECT_PASSES);
  });

  it('regression: a box at 30 u/s rising at 7.5 u/s drives 8 balls into the corner of a wall and a ceiling: no two of them overlap beyond 1 % (0.28 when the passes stopped on a lack of progress)', () => {
    const s = emptyScene({ gravity: [0, -9.81, 0] });
    staticBox(s, [0, -1, 0], [50, 1, 50]);
    staticBox(s, [3.25, 3, 0], [0.25, 3, 3]);
    staticBox(s, [0, 4.5, 0], [50, 0.5, 50]);
    kinematicBox(s, [-3, 1.5, 0], [0.5, 1.5, 2], [30, 7.5, 0]);
    ballsBeforeWall(s, 8, 15, 100);
    // Squeezed balls may end inside the box where they touch the wall or the ceiling (rule 2).
    check(s, 11, true);
  });

  it('corridors: spheres bouncing between two walls while a kinematic box walks along them', () => {
    const arb = fc.record({ width: num(1.05, 3), v: num(0.5, 10), n: fc.integer({ min: 1, max: 4 }), speed: num(0, 600), mode: modeArb, iters: fc.constantFrom(1, 4), seed: fc.integer() });
    fc.assert(fc.property(arb, (o) => {
      const s = emptyScene({ maxIterations: o.iters });
      const w = o.width / 2;
      staticBox(s, [0, 0, w + 0.25], [50, 3, 0.25]);
      staticBox(s, [0, 0, -w - 0.25], [50, 3, 0.25]);
      kinematicBox(s, [-3, 0, 0], [0.5, 2, w * 0.95], [o.v, 0, 0]);
      let q = o.seed;
      const rand = () => ((q = (Math.imul(q, 1103515245) + 12345) | 0) >>> 0) / 2 ** 32;
      for (let i = 0; i < o.n; i++) dynamicSphere(s, [1.2 * i, 0, 0], 0.5, [o.speed * (rand() - 0.5), 0, o.speed * (rand() - 0.5)], o.mode);
      check(s, 60, true);
    }), { seed: 26, numRuns: 40 });
  });

  it.each([28, 38, 83, 161, 272, 300])('regression: a crowd of 60 crossed by two boxes at 3 u/s (seed %i): no sphere inside a wall, no two overlapping beyond 1 % (0.13-0.30 of a radii sum before the yield)', (seed) => {
    const s = roomCrossed(seed);
    for (let t = 0; t < 260; t++) {
      step(s.physics);
      const d = depths(s);
      expect(d.statics).toBeLessThanOrEqual(BOX_TOL);
      expect(d.spheres).toBeLessThanOrEqual(SPHERE_TOL);
    }
  });

  it('crowds: a room of spheres with kinematic boxes moving through it', () => {
    const arb = fc.record({ n: fc.integer({ min: 5, max: 40 }), boxes: fc.integer({ min: 1, max: 3 }), v: num(0.5, 6), speed: num(0, 30), g: fc.boolean(), mode: modeArb, seed: fc.integer() });
    fc.assert(fc.property(arb, (o) => {
      const s = emptyScene({ gravity: o.g ? [0, -9.81, 0] : [0, 0, 0] });
      const L = 8;
      for (let axis = 0; axis < 3; axis++) for (const side of [-1, 1]) {
        const c: [number, number, number] = [0, 0, 0];
        const h: [number, number, number] = [L + 1, L + 1, L + 1];
        c[axis] = side * (L + 0.5);
        h[axis] = 0.5;
        staticBox(s, c, h);
      }
      let q = o.seed;
      const rand = () => ((q = (Math.imul(q, 1103515245) + 12345) | 0) >>> 0) / 2 ** 32;
      for (let i = 0; i < o.boxes; i++) kinematicBox(s, [-6 + 6 * i, -6 + 4 * rand(), -4 + 8 * rand()], [0.6, 0.6, 0.6], [o.v * (rand() - 0.5), o.v * (rand() - 0.5), o.v * (rand() - 0.5)]);
      for (let i = 0; i < o.n; i++) {
        const p: [number, number, number] = [-7 + 14 * ((i % 5) + 0.5) / 5, 1 + 6 * (Math.floor(i / 25) / 2), -7 + 14 * ((Math.floor(i / 5) % 5) + 0.5) / 5];
        dynamicSphere(s, p, 0.4, [o.speed * (rand() - 0.5), o.speed * (rand() - 0.5), o.speed * (rand() - 0.5)], o.mode);
      }
      // Spheres may start inside a kinematic box: the first tick pushes them out.
      step(s.physics);
      check(s, 60, true);
    }), { seed: 27, numRuns: 25 });
  });
});
