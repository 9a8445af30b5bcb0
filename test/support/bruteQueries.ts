/**
 * Brute-force world queries for tests: every body of a list examined with the geometry API's casts
 * and overlaps, at the pose its components hold now. World frame, length units; distances along the
 * unit direction.
 */
import { expect } from 'vitest';
import { castSphereBox, castSphereSphere, overlapSphereBox, overlapSphereSphere, type BoxShape, type Physics, type SphereShape } from '../../src/index.js';

export type P3 = [number, number, number];
/** A body of a brute-force scene: a sphere of radius `r`, or a box of half extents `h`. */
export interface BruteBody { eid: number; sphere: boolean; r: number; h: P3 }

const P = (p: P3) => ({ x: p[0], y: p[1], z: p[2] });

type Shape = { sphere: SphereShape; box?: undefined } | { sphere?: undefined; box: BoxShape };

/** Body b's shape as the geometry API takes it (a box's rotation normalised as the library does). */
function shapeOf(physics: Physics, b: BruteBody): Shape {
  const { Position: pos, Box: B } = physics.components;
  const center = { x: pos.x[b.eid], y: pos.y[b.eid], z: pos.z[b.eid] };
  if (b.sphere) return { sphere: { center, radius: b.r } };
  const [qx, qy, qz, qw] = [B.qx[b.eid], B.qy[b.eid], B.qz[b.eid], B.qw[b.eid]];
  const n2 = qx * qx + qy * qy + qz * qz + qw * qw;
  const inv = n2 === 1 ? 1 : 1 / Math.sqrt(n2);
  return { box: { center, halfExtents: P(b.h), rotation: { x: qx * inv, y: qy * inv, z: qz * inv, w: qw * inv } } };
}

/** Every body the sphere of `radius` swept from `o` along the unit `d` over `L` hits: [entity, distance], sorted. */
export function bruteCast(physics: Physics, bodies: BruteBody[], o: P3, d: P3, L: number, radius: number): Array<[number, number]> {
  const probe = { center: P(o), radius };
  const motion = { x: d[0] * L, y: d[1] * L, z: d[2] * L };
  const out = { toi: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };
  const hits: Array<[number, number]> = [];
  for (const b of bodies) {
    const s = shapeOf(physics, b);
    const hit = s.sphere ? castSphereSphere(probe, motion, s.sphere, out) : castSphereBox(probe, motion, s.box, out);
    if (hit) hits.push([b.eid, out.toi * L]);
  }
  return hits.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

/** Every body the sphere of `radius` at `c` touches or overlaps, ascending ids. */
export function bruteOverlapSphere(physics: Physics, bodies: BruteBody[], c: P3, radius: number): number[] {
  const probe = { center: P(c), radius };
  return bodies.filter((b) => {
    const s = shapeOf(physics, b);
    return s.sphere ? overlapSphereSphere(probe, s.sphere) : overlapSphereBox(probe, s.box);
  }).map((b) => b.eid).sort((a, b) => a - b);
}

/** Distances agree but for the last bits (the queries normalise the direction their own way). */
export function near(a: number, b: number, L: number): void {
  expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-12 * Math.max(L, 1));
}

/** `v` scaled to unit length. */
export function unit(v: P3): P3 {
  const l = Math.hypot(...v);
  return [v[0] / l, v[1] / l, v[2] / l];
}
