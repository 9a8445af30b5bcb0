/**
 * fast-check arbitraries of box–box scenes (static and swept). Every scene carries a `kind` tag.
 *
 * Random scenes mix axis-aligned, rotated (special and random quaternions), flat (zero half extents:
 * rectangles, segments, points) and 2D boxes; parallel edges (a's rotation is b's composed with a
 * rotation about one of b's axes, or equal to it); near-touching placements along every kind of
 * separating axis (b's faces, a's faces, edge pairs) at exactly the push-out distance or off it by
 * 1e-15 … 0.1 of the scene; one box inside the other; then a global scale (1e-3 … 1e3, 2^±20) and
 * offset (up to 1e4). Exact scenes use small integers and the 12 rotations whose quaternions and
 * matrices are exact (identity, half turns about the axes, third turns about the diagonals).
 */
import fc from 'fast-check';
import { type Arr3, type OBoxShape, type Q4, type V3, OBox, add3, dot3, norm3, scale3, toArr, toV3 } from '../oracle/oracle.js';
import { axisAngleQuat, makeBox, randomQuat, rotationArb, sceneOffset, sceneScale, uRange, unitDir, vecIn, zRotation } from './arbitraries.js';

export interface BBScene {
  kind: string;
  a: OBoxShape;
  b: OBoxShape;
}

export interface BBCast extends BBScene {
  motion: V3;
}

// ---------------------------------------------------------------------------------------------
// Rotations and boxes

/** Quaternion product p·q (p applied after q). */
export const quatMul = (p: Q4, q: Q4): Q4 => ({
  x: p.w * q.x + q.w * p.x + p.y * q.z - p.z * q.y,
  y: p.w * q.y + q.w * p.y + p.z * q.x - p.x * q.z,
  z: p.w * q.z + q.w * p.z + p.x * q.y - p.y * q.x,
  w: p.w * q.w - (p.x * q.x + p.y * q.y + p.z * q.z),
});

const H = 0.5;
/** The rotations with exact quaternions and exact (signed permutation) matrices. */
export const EXACT_QUATS: Q4[] = [
  { x: 0, y: 0, z: 0, w: 1 },
  { x: 1, y: 0, z: 0, w: 0 },
  { x: 0, y: 1, z: 0, w: 0 },
  { x: 0, y: 0, z: 1, w: 0 },
  ...[-1, 1].flatMap((sx) => [-1, 1].flatMap((sy) => [-1, 1].map((sz) => ({ x: sx * H, y: sy * H, z: sz * H, w: H })))),
];

/** Half extents: a fifth of the components zero (flat boxes), some tiny. */
const half = fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 7, arbitrary: uRange(0, 5) }, { weight: 1, arbitrary: uRange(0, 0.01) });
const halves = fc.tuple(half, half, half).map(([x, y, z]): V3 => ({ x, y, z }));
const anyBox = fc.tuple(vecIn(-10, 10), halves, rotationArb).map(([c, h, q]) => makeBox(c, h, q));

const radiusOn = (box: OBox, u: Arr3): number => box.h[0] * Math.abs(dot3(box.axes[0], u)) + box.h[1] * Math.abs(dot3(box.axes[1], u)) + box.h[2] * Math.abs(dot3(box.axes[2], u));

const cross = (a: Arr3, b: Arr3): Arr3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/**
 * A unit separating-axis candidate of the two boxes: pick 0-2 one of b's face normals, 3-5 one of
 * a's, 6-14 an edge cross product (a random direction when that one is degenerate).
 */
function axisOf(A: OBox, B: OBox, pick: number, fallback: Arr3): Arr3 {
  if (pick < 3) return B.axes[pick];
  if (pick < 6) return A.axes[pick - 3];
  const c = cross(B.axes[((pick - 6) / 3) | 0], A.axes[(pick - 6) % 3]);
  const n = norm3(c);
  return n < 1e-6 ? fallback : scale3(c, 1 / n);
}

/** Near-contact offsets, relative to the scene size: exactly 0 (touching), or ±1e-15 … ±0.1. */
const nearOffset = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom(1e-15, 1e-12, 1e-9, 1e-6, 1e-3, 0.1), fc.constantFrom(-1, 1)).map(([m, s]) => m * s) },
);

/**
 * a placed along the axis `pick` at the push-out distance (touching along that axis) plus `delta`
 * times the scene size, shifted sideways by `side` (a fraction of the boxes' sizes) across the axis.
 */
function placeAlong(a: OBoxShape, b: OBoxShape, pick: number, sign: number, delta: number, side: Arr3, fallback: Arr3): OBoxShape {
  const B = new OBox(b);
  const A0 = new OBox({ ...a, center: b.center });
  const u = scale3(axisOf(A0, B, pick, fallback), sign);
  const size = Math.max(norm3(B.h), norm3(A0.h), 1e-3);
  const lateral = add3(side, scale3(u, -dot3(side, u)));
  const dist = radiusOn(A0, u) + radiusOn(B, u) + delta * size;
  const c = add3(add3(toArr(b.center), scale3(u, dist)), scale3(lateral, 0.5 * size));
  return makeBox(toV3(c), a.halfExtents, a.rotation);
}

const touchParts = fc.tuple(fc.integer({ min: 0, max: 14 }), fc.constantFrom(-1, 1), nearOffset, fc.tuple(uRange(-1, 1), uRange(-1, 1), uRange(-1, 1)), unitDir);

/** Scale the whole scene by s and move it by o. */
const sv = (v: V3, s: number, o: V3 = { x: 0, y: 0, z: 0 }): V3 => ({ x: v.x * s + o.x, y: v.y * s + o.y, z: v.z * s + o.z });
const scaleBox = (b: OBoxShape, s: number, o: V3): OBoxShape => makeBox(sv(b.center, s, o), sv(b.halfExtents, s), b.rotation);

/** A mixture of scene kinds, given as [weight, arbitrary] pairs, each scene scaled and moved by `scale`. */
function scaledMixture<T extends BBScene>(scale: (sc: T, s: number, o: V3) => T, ...kinds: Array<[number, fc.Arbitrary<T>]>): fc.Arbitrary<T> {
  const mixed = fc.oneof(...kinds.map(([weight, arbitrary]) => ({ weight, arbitrary })));
  return fc.tuple(mixed, sceneScale, sceneOffset).map(([sc, s, o]) => scale(sc, s, o));
}

/** The world point of b at local coordinates l times its half extents. */
const pointOf = (B: OBox, l: Arr3): Arr3 => B.toWorld([l[0] * B.h[0], l[1] * B.h[1], l[2] * B.h[2]]);

const scaleScene = <T extends BBScene>(sc: T, s: number, o: V3): T => ({ ...sc, a: scaleBox(sc.a, s, o), b: scaleBox(sc.b, s, o) });
const scaleCast = (sc: BBCast, s: number, o: V3): BBCast => ({ ...scaleScene(sc, s, o), motion: sv(sc.motion, s) });

// ---------------------------------------------------------------------------------------------
// Static scenes

const bbRandom: fc.Arbitrary<BBScene> = fc
  .tuple(anyBox, halves, rotationArb, vecIn(-12, 12))
  .map(([b, h, q, off]) => ({ kind: 'random', b, a: makeBox(sv(off, 1, b.center), h, q) }));

const bbTouch: fc.Arbitrary<BBScene> = fc
  .tuple(anyBox, halves, rotationArb, touchParts)
  .map(([b, h, q, [pick, sign, delta, side, dir]]) => ({
    kind: `touch-${pick < 3 ? 'faceB' : pick < 6 ? 'faceA' : 'edge'}`,
    b,
    a: placeAlong(makeBox(b.center, h, q), b, pick, sign, delta, side, dir),
  }));

/** a's rotation: b's, or b's followed by a turn (random or a right angle) about one of b's axes. */
const parallelRotation = (qb: Q4 | undefined): fc.Arbitrary<Q4 | undefined> =>
  fc
    .tuple(fc.constantFrom<0 | 1 | 2>(0, 1, 2), fc.oneof(uRange(-Math.PI, Math.PI), fc.constantFrom(0, Math.PI / 2, Math.PI)), fc.boolean())
    .map(([axis, angle, same]) => (same ? qb : quatMul(qb ?? { x: 0, y: 0, z: 0, w: 1 }, axisAngleQuat(axis, angle))));

const bbParallel: fc.Arbitrary<BBScene> = anyBox.chain((b) =>
  fc.tuple(halves, parallelRotation(b.rotation), touchParts).map(([h, q, [pick, sign, delta, side, dir]]) => ({
    kind: 'parallel',
    b,
    a: placeAlong(makeBox(b.center, h, q), b, pick, sign, delta, side, dir),
  })),
);

/** a small box inside b (or b inside a), possibly touching b's faces from inside. */
const bbInside: fc.Arbitrary<BBScene> = fc
  .tuple(anyBox, fc.tuple(uRange(-1, 1), uRange(-1, 1), uRange(-1, 1)), rotationArb, uRange(0, 0.3), fc.boolean())
  .map(([b, l, q, f, swap]) => {
    const B = new OBox(b);
    const c = toV3(pointOf(B, l));
    const m = Math.min(B.h[0], B.h[1], B.h[2]) * f;
    const a = makeBox(c, { x: m, y: m * 0.5, z: m * 0.25 }, q);
    return swap ? { kind: 'contains', a: b, b: a } : { kind: 'inside', a, b };
  });

/** 2D: centres in the z = 0 plane, rotations about z, any half extent z (0 included). */
const bb2D: fc.Arbitrary<BBScene> = fc
  .tuple(vecIn(-10, 10), halves, halves, fc.option(zRotation), fc.option(zRotation), vecIn(-12, 12))
  .map(([c, hb, ha, qb, qa, off]) => ({
    kind: '2d',
    b: makeBox({ x: c.x, y: c.y, z: 0 }, hb, qb ?? undefined),
    a: makeBox({ x: c.x + off.x, y: c.y + off.y, z: 0 }, ha, qa ?? undefined),
  }));

/** Segments and points: two or three zero half extents. */
const flatHalves = fc.tuple(uRange(0, 5), fc.constantFrom(0, 1, 2), fc.boolean()).map(([l, axis, point]): V3 => {
  const h: Arr3 = [0, 0, 0];
  if (!point) h[axis] = l;
  return toV3(h);
});
const bbFlat: fc.Arbitrary<BBScene> = fc
  .tuple(anyBox, flatHalves, fc.oneof(randomQuat, rotationArb), touchParts, fc.boolean())
  .map(([b, h, q, [pick, sign, delta, side, dir], swap]) => {
    const a = placeAlong(makeBox(b.center, h, q), b, pick, sign, delta, side, dir);
    return swap ? { kind: 'flat', a: b, b: a } : { kind: 'flat', a, b };
  });

export const bbSceneArb: fc.Arbitrary<BBScene> = scaledMixture(scaleScene, [4, bbRandom], [5, bbTouch], [3, bbParallel], [2, bbInside], [1, bb2D], [2, bbFlat]);

// ---------------------------------------------------------------------------------------------
// Casts

const motionArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant<V3>({ x: 0, y: 0, z: 0 }) },
  { weight: 6, arbitrary: vecIn(-30, 30) },
  { weight: 1, arbitrary: vecIn(-1e-3, 1e-3) },
);

/** Some motions with components set to exactly 0 (axis-parallel sweeps). */
const zeroSome = (m: V3, mask: number): V3 => ({ x: mask & 1 ? 0 : m.x, y: mask & 2 ? 0 : m.y, z: mask & 4 ? 0 : m.z });
const maskArb = fc.constantFrom(0, 0, 0, 0, 0, 1, 2, 4, 3, 5, 6);

const castRandom: fc.Arbitrary<BBCast> = fc
  .tuple(bbSceneArb, motionArb, maskArb)
  .map(([sc, m, mask]) => ({ ...sc, kind: `cast-${sc.kind}`, motion: zeroSome(m, mask) }));

/** a starts away from b and moves toward a point of b (grown by a's size); the step ends short, at or past it. */
const castAimed: fc.Arbitrary<BBCast> = fc
  .tuple(anyBox, halves, rotationArb, fc.tuple(uRange(-1.2, 1.2), uRange(-1.2, 1.2), uRange(-1.2, 1.2)), unitDir, uRange(0, 20), fc.oneof(uRange(0.2, 3), fc.constantFrom(0.5, 1, 2)), maskArb)
  .map(([b, h, q, l, dir, dist, k, mask]) => {
    const B = new OBox(b);
    const target = pointOf(B, l);
    const size = norm3(B.h) + norm3(toArr(h));
    const start = add3(target, scale3(dir, dist + size));
    const m = zeroSome(toV3(scale3(add3(target, scale3(start, -1)), k)), mask);
    return { kind: 'cast-aimed', b, a: makeBox(toV3(start), h, q), motion: m };
  });

/** Huge motions: a starts 1e3 … 1e6 box sizes away and passes through or near b. */
const castHuge: fc.Arbitrary<BBCast> = fc
  .tuple(anyBox, halves, rotationArb, fc.tuple(uRange(-1.5, 1.5), uRange(-1.5, 1.5), uRange(-1.5, 1.5)), unitDir, fc.constantFrom(1e3, 1e4, 1e5, 1e6), uRange(0.3, 2.5))
  .map(([b, h, q, l, dir, far, k]) => {
    const B = new OBox(b);
    const target = pointOf(B, l);
    const size = Math.max(norm3(B.h), norm3(toArr(h)), 1e-3);
    const start = add3(target, scale3(dir, far * size));
    return { kind: 'cast-huge', b, a: makeBox(toV3(start), h, q), motion: toV3(scale3(dir, -far * size * k)) };
  });

/** Grazing: a touches (or nearly) b along an axis and slides across it, with a small approach or retreat. */
const castGraze: fc.Arbitrary<BBCast> = fc
  .tuple(fc.oneof(bbTouch, bbParallel, bbFlat), unitDir, uRange(0.5, 30), uRange(0, 1.2), fc.constantFrom(0, 0, 1e-9, -1e-9, 1e-3, -1e-3))
  .map(([sc, rnd, len, frac, lean]) => {
    // Slide along a random direction, starting `frac` of the way back along it.
    const d = scale3(rnd, len);
    const start = add3(toArr(sc.a.center), scale3(d, -frac));
    const toward = scale3(add3(toArr(sc.b.center), scale3(toArr(sc.a.center), -1)), lean);
    return { kind: `cast-graze-${sc.kind}`, b: sc.b, a: makeBox(toV3(start), sc.a.halfExtents, sc.a.rotation), motion: toV3(add3(d, toward)) };
  });

/** Flat boxes (rectangles, segments, points) crossing each other within one step. */
const castThin: fc.Arbitrary<BBCast> = fc
  .tuple(bbFlat, unitDir, uRange(1, 1e3), uRange(1.5, 2.5))
  .map(([sc, dir, far, k]) => {
    const start = add3(toArr(sc.a.center), scale3(dir, far));
    return { kind: 'cast-thin', b: sc.b, a: makeBox(toV3(start), sc.a.halfExtents, sc.a.rotation), motion: toV3(scale3(dir, -far * k)) };
  });

export const bbCastArb: fc.Arbitrary<BBCast> = scaledMixture(scaleCast, [3, castRandom], [4, castAimed], [1, castHuge], [3, castGraze], [1, castThin]);

// ---------------------------------------------------------------------------------------------
// Exact integer scenes

const exactBox = fc
  .tuple(
    fc.tuple(fc.integer({ min: -6, max: 6 }), fc.integer({ min: -6, max: 6 }), fc.integer({ min: -6, max: 6 })),
    fc.tuple(fc.nat(3), fc.nat(3), fc.nat(3)),
    fc.option(fc.constantFrom(...EXACT_QUATS), { freq: 3 }),
  )
  .map(([c, h, q]) => makeBox(toV3(c), toV3(h), q ?? undefined));

/**
 * Exact contacts of integer boxes: a's centre is b's moved by the sum of the two boxes' extents
 * along 1, 2 or 3 of b's axes (face, edge or vertex touching), or less or more by 0, 1 or 2^-20;
 * sometimes inside.
 */
export const exactBBArb: fc.Arbitrary<BBScene> = fc
  .tuple(exactBox, exactBox, fc.tuple(fc.constantFrom(-1, 0, 1), fc.constantFrom(-1, 0, 1), fc.constantFrom(-1, 0, 1)), fc.tuple(fc.integer({ min: -2, max: 2 }), fc.integer({ min: -2, max: 2 }), fc.integer({ min: -2, max: 2 })), fc.constantFrom(0, 0, 1, -1, 2 ** -20, -(2 ** -20)))
  .map(([b, a0, signs, shift, bump]) => {
    const B = new OBox(b);
    const A = new OBox(a0);
    const off: number[] = [0, 0, 0];
    let kind = 'exact';
    for (let j = 0; j < 3; j++) {
      const u = B.axes[j];
      if (signs[j] !== 0) {
        off[j] = signs[j] * (radiusOn(A, u) + radiusOn(B, u) + bump);
        kind += `-${'xyz'[j]}`;
      } else off[j] = shift[j];
    }
    const c = add3(toArr(b.center), B.dirToWorld(off as Arr3));
    return { kind, b, a: makeBox(toV3(c), a0.halfExtents, a0.rotation) };
  });

/** Exact casts: an exact scene moved back along an integer motion by a dyadic fraction of it. */
export const exactBBCastArb: fc.Arbitrary<BBCast> = fc
  .tuple(exactBBArb, fc.tuple(fc.integer({ min: -8, max: 8 }), fc.integer({ min: -8, max: 8 }), fc.integer({ min: -8, max: 8 })), fc.constantFrom(0, 0.25, 0.5, 1, 1.5, 3))
  .map(([sc, m, back]) => {
    const start = add3(toArr(sc.a.center), scale3(m, -back));
    return { kind: `cast-${sc.kind}`, b: sc.b, a: makeBox(toV3(start), sc.a.halfExtents, sc.a.rotation), motion: toV3(m) };
  });
