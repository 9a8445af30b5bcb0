/**
 * The guarantees of collision response (docs/response.md), as properties over random scenes:
 * 1. a dynamic sphere never passes through, and never ends a tick overlapping, a static box or a
 *    kinematic body (beyond 1e-9 of the scene's scale), at speeds up to 10,000 radii per tick,
 *    against thin, flat and rotated boxes and in corners;
 * 2. BOUNCE with restitution 1 against static boxes keeps the speed (1e-12 relative);
 * 3. two dynamic spheres: momentum conserved, energy too with restitution 1, head-on never pass
 *    through each other.
 * Distances are checked with an independent point–box distance (test/support/response.ts).
 * The scenario count is reported (BITECS_COLLIDE_REPORT=1).
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { addBox, addSphere, step } from '../../src/index.js';
import { report } from '../support/report.js';
import { axisAngle, boxDistance, dot, freshPhysics, len, pos, rotate, vel, type Q4, type V3 } from '../support/response.js';

const opts = (seed: number, numRuns: number) => ({ seed, numRuns });
const MODES = ['stop', 'slide', 'bounce'] as const;
const TICKS = 3;
let scenarios = 0;
let worstPenetration = 0;
afterAll(() => report(`response guarantees: ${scenarios} random scenarios, worst penetration ${worstPenetration.toExponential(2)} of the scene scale`));

const unit = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .filter((v) => Math.hypot(...v) > 0.1)
  .map((v): V3 => {
    const l = Math.hypot(...v);
    return [v[0] / l, v[1] / l, v[2] / l];
  });
const rotationArb = fc.tuple(unit, fc.double({ min: 0, max: Math.PI, noNaN: true })).map(([a, t]) => axisAngle(a, t));
const radiusArb = fc.double({ min: 0.01, max: 10, noNaN: true });
/** Speed in radii per tick, spread over decades up to 10,000. */
const speedArb = fc.double({ min: -2, max: 4, noNaN: true }).map((e) => 10 ** e);
const DT = 1 / 60;

/** Checks that `eid` (radius r) is outside every box of `boxes`, to `tol`; returns the worst depth. */
function outside(p: V3, r: number, boxes: Array<{ c: V3; h: V3; q: Q4 }>, tol: number): number {
  let worst = 0;
  for (const b of boxes) {
    const depth = r - boxDistance(p, b.c, b.h, b.q);
    expect(depth).toBeLessThanOrEqual(tol);
    worst = Math.max(worst, depth / tol);
  }
  return worst;
}

describe('guarantee 1: no tunnelling, no overlap at the end of a tick', () => {
  it('a thin or flat rotated wall: the sphere stays on its side at any speed', () => {
    const arb = fc.record({ r: radiusArb, q: rotationArb, thick: fc.double({ min: 0, max: 2, noNaN: true }), gap: fc.double({ min: 0, max: 3, noNaN: true }),
      speed: speedArb, dir: unit, mode: fc.constantFrom(...MODES), e: fc.double({ min: 0, max: 1, noNaN: true }) });
    fc.assert(fc.property(arb, (sc) => {
      scenarios++;
      const physics = freshPhysics({ dt: DT });
      const n = rotate(sc.q, [0, 1, 0]);
      const half: V3 = [1e6 * sc.r, sc.thick * sc.r, 1e6 * sc.r];
      const c: V3 = [0, 0, 0];
      addBox(physics, { position: c, halfExtents: half, rotation: sc.q });
      const d = half[1] + sc.r * (1 + sc.gap);
      const start: V3 = [n[0] * d, n[1] * d, n[2] * d];
      // towards the wall (at least a little)
      const dir = dot(sc.dir, n) > 0 ? sc.dir.map((x) => -x) as V3 : sc.dir;
      const v = dir.map((x) => (x * sc.speed * sc.r) / DT) as V3;
      const s = addSphere(physics, { position: start, velocity: v, radius: sc.r, response: sc.mode, restitution: sc.e });
      const scale = sc.r * (1 + sc.speed) + len(start);
      for (let t = 0; t < TICKS; t++) {
        step(physics);
        const p = pos(physics, s);
        expect(dot(p, n)).toBeGreaterThan(0);
        worstPenetration = Math.max(worstPenetration, outside(p, sc.r, [{ c, h: half, q: sc.q }], 1e-9 * scale) * 1e-9);
      }
    }), opts(1401, 3000));
  });

  it('a corner of two or three rotated walls: the sphere stays inside', () => {
    const arb = fc.record({ r: radiusArb, q: rotationArb, walls: fc.constantFrom(2, 3), at: fc.tuple(fc.double({ min: 1, max: 5, noNaN: true }), fc.double({ min: 1, max: 5, noNaN: true }), fc.double({ min: 1, max: 5, noNaN: true })),
      speed: speedArb, dir: unit, mode: fc.constantFrom(...MODES) });
    fc.assert(fc.property(arb, (sc) => {
      scenarios++;
      const physics = freshPhysics({ dt: DT });
      const big = 1e6 * sc.r;
      const boxes: Array<{ c: V3; h: V3; q: Q4 }> = [];
      const normals: V3[] = [];
      for (let a = 0; a < sc.walls; a++) {
        const h: V3 = [big, big, big];
        h[a] = sc.r;
        const local: V3 = [big, big, big];
        local[a] = -sc.r;
        if (sc.walls === 2) local[2] = 0; // two walls: a crease along z, open both ways
        const c = rotate(sc.q, local);
        const axis: V3 = [0, 0, 0];
        axis[a] = 1;
        normals.push(rotate(sc.q, axis));
        boxes.push({ c, h, q: sc.q });
        addBox(physics, { position: c, halfExtents: h, rotation: sc.q });
      }
      const local = sc.at.map((x) => x * sc.r) as V3;
      if (sc.walls === 2) local[2] = 0;
      const start = rotate(sc.q, local);
      const dir = rotate(sc.q, sc.dir.map((x) => -Math.abs(x)) as V3);
      const v = dir.map((x) => (x * sc.speed * sc.r) / DT) as V3;
      const s = addSphere(physics, { position: start, velocity: v, radius: sc.r, response: sc.mode });
      const scale = sc.r * (6 + sc.speed);
      for (let t = 0; t < TICKS; t++) {
        step(physics);
        const p = pos(physics, s);
        for (const n of normals) expect(dot(p, n)).toBeGreaterThan(0);
        worstPenetration = Math.max(worstPenetration, outside(p, sc.r, boxes, 1e-9 * scale) * 1e-9);
      }
    }), opts(1402, 2000));
  });

  it('a kinematic box or sphere moving across the path: never overlapping at the end of a tick', () => {
    const arb = fc.record({ r: radiusArb, q: rotationArb, sphere: fc.boolean(), size: fc.double({ min: 0.1, max: 4, noNaN: true }),
      speed: speedArb, dir: unit, kspeed: fc.double({ min: 0, max: 3, noNaN: true }), kdir: unit, mode: fc.constantFrom(...MODES), gap: fc.double({ min: 0.1, max: 5, noNaN: true }) });
    fc.assert(fc.property(arb, (sc) => {
      scenarios++;
      const physics = freshPhysics({ dt: DT });
      const size = sc.size * sc.r;
      const kv = sc.kdir.map((x) => (x * sc.kspeed * sc.r) / DT) as V3;
      const h: V3 = [size, size * 0.5, size * 2];
      const k = sc.sphere
        ? addSphere(physics, { position: [0, 0, 0], velocity: kv, radius: size })
        : addBox(physics, { position: [0, 0, 0], velocity: kv, halfExtents: h, rotation: sc.q });
      const d = 2 * size + sc.r * (1 + sc.gap);
      const start: V3 = [-sc.dir[0] * d, -sc.dir[1] * d, -sc.dir[2] * d];
      const v = sc.dir.map((x) => (x * sc.speed * sc.r) / DT) as V3;
      const s = addSphere(physics, { position: start, velocity: v, radius: sc.r, response: sc.mode });
      const scale = sc.r * (1 + sc.speed + sc.kspeed) + d;
      for (let t = 0; t < TICKS; t++) {
        step(physics);
        const p = pos(physics, s);
        const kp = pos(physics, k);
        if (sc.sphere) {
          const depth = sc.r + size - len([p[0] - kp[0], p[1] - kp[1], p[2] - kp[2]]);
          expect(depth).toBeLessThanOrEqual(1e-9 * scale);
          worstPenetration = Math.max(worstPenetration, depth / scale);
        } else {
          worstPenetration = Math.max(worstPenetration, outside(p, sc.r, [{ c: kp, h, q: sc.q }], 1e-9 * scale) * 1e-9);
        }
      }
    }), opts(1403, 2000));
  });
});

describe('guarantee 2: BOUNCE with restitution 1 keeps the speed', () => {
  it('in a closed room of six rotated walls, to 1e-12 relative', () => {
    const arb = fc.record({ r: radiusArb, q: rotationArb, speed: speedArb, dir: unit, at: fc.tuple(fc.double({ min: -0.8, max: 0.8, noNaN: true }), fc.double({ min: -0.8, max: 0.8, noNaN: true }), fc.double({ min: -0.8, max: 0.8, noNaN: true })) });
    fc.assert(fc.property(arb, (sc) => {
      scenarios++;
      const physics = freshPhysics({ dt: DT });
      const room = 10 * sc.r;
      const walls: Array<{ c: V3; h: V3; q: Q4 }> = [];
      for (let a = 0; a < 3; a++) {
        for (const side of [-1, 1]) {
          const local: V3 = [0, 0, 0];
          local[a] = side * (room + sc.r);
          const h: V3 = [room + 2 * sc.r, room + 2 * sc.r, room + 2 * sc.r];
          h[a] = sc.r;
          const c = rotate(sc.q, local);
          walls.push({ c, h, q: sc.q });
          addBox(physics, { position: c, halfExtents: h, rotation: sc.q });
        }
      }
      const start = rotate(sc.q, sc.at.map((x) => x * (room - sc.r)) as V3);
      const v = sc.dir.map((x) => (x * sc.speed * sc.r) / DT) as V3;
      const s = addSphere(physics, { position: start, velocity: v, radius: sc.r, response: 'bounce', restitution: 1 });
      const speed = len(v);
      const scale = room + sc.r * sc.speed;
      for (let t = 0; t < 20; t++) {
        step(physics);
        expect(Math.abs(len(vel(physics, s)) - speed)).toBeLessThanOrEqual(1e-12 * speed);
        const p = pos(physics, s);
        worstPenetration = Math.max(worstPenetration, outside(p, sc.r, walls, 1e-9 * scale) * 1e-9);
        const local = rotate([-sc.q[0], -sc.q[1], -sc.q[2], sc.q[3]], p);
        for (const x of local) expect(Math.abs(x)).toBeLessThan(room);
      }
    }), opts(1404, 1000));
  });
});

describe('guarantee 3: two dynamic spheres', () => {
  it('head-on at any speed they never pass through each other; momentum and (e = 1) energy conserved', () => {
    const arb = fc.record({ ra: radiusArb, rb: radiusArb, sa: speedArb, sb: speedArb, dir: unit, gap: fc.double({ min: 0, max: 3, noNaN: true }),
      off: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 0.9, noNaN: true })), e: fc.constantFrom(1, 0.5, 0), ma: fc.double({ min: 0.1, max: 10, noNaN: true }), mb: fc.double({ min: 0.1, max: 10, noNaN: true }) });
    fc.assert(fc.property(arb, (sc) => {
      scenarios++;
      const physics = freshPhysics({ dt: DT });
      const d = (sc.ra + sc.rb) * (1 + sc.gap);
      const side = Math.abs(sc.dir[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
      const o = sc.off * (sc.ra + sc.rb);
      const pa: V3 = [-sc.dir[0] * d / 2 + side[0] * o, -sc.dir[1] * d / 2 + side[1] * o, -sc.dir[2] * d / 2 + side[2] * o];
      const pb: V3 = [sc.dir[0] * d / 2, sc.dir[1] * d / 2, sc.dir[2] * d / 2];
      const va = sc.dir.map((x) => (x * sc.sa * sc.ra) / DT) as V3;
      const vb = sc.dir.map((x) => (-x * sc.sb * sc.rb) / DT) as V3;
      const a = addSphere(physics, { position: pa, velocity: va, radius: sc.ra, response: 'bounce', restitution: sc.e, mass: sc.ma });
      const b = addSphere(physics, { position: pb, velocity: vb, radius: sc.rb, response: 'bounce', restitution: sc.e, mass: sc.mb });
      const momentum = (): V3 => [0, 1, 2].map((k) => sc.ma * vel(physics, a)[k] + sc.mb * vel(physics, b)[k]) as V3;
      const energy = () => 0.5 * (sc.ma * dot(vel(physics, a), vel(physics, a)) + sc.mb * dot(vel(physics, b), vel(physics, b)));
      const m0 = momentum();
      const e0 = energy();
      const scale = d + sc.sa * sc.ra + sc.sb * sc.rb;
      const pscale = sc.ma * len(va) + sc.mb * len(vb);
      for (let t = 0; t < TICKS; t++) {
        step(physics);
        const A = pos(physics, a), B = pos(physics, b);
        const ab: V3 = [B[0] - A[0], B[1] - A[1], B[2] - A[2]];
        expect(sc.ra + sc.rb - len(ab)).toBeLessThanOrEqual(1e-9 * scale);
        if (sc.off === 0) expect(dot(ab, sc.dir)).toBeGreaterThan(0);
        const m = momentum();
        for (let k = 0; k < 3; k++) expect(Math.abs(m[k] - m0[k])).toBeLessThanOrEqual(1e-12 * pscale);
        if (sc.e === 1) expect(Math.abs(energy() - e0)).toBeLessThanOrEqual(1e-12 * e0);
      }
    }), opts(1405, 2000));
  });
});
