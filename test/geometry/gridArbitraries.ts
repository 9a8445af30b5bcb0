/**
 * Grid scenes for the exact-oracle property tests: every coordinate, radius, half extent and motion
 * component is a multiple of 2^-6 of magnitude below 2^8 (14 bits at most), and rotations are absent, the
 * identity or one of the 24 quaternions with components in {0, ±1/2, ±1} (the rotations that map the
 * axes onto the axes). Every sum, difference and product the queries form on such inputs is exact in
 * float64, and a configuration that does not touch misses touching by far more than rounding, so the
 * queries must decide them exactly: touching is true at the start, at the end of the step (toi 1) and
 * at a grazing instant.
 *
 * Touching configurations are built, not hoped for: a surface point of the box (face, edge or vertex
 * region, or b's centre), an integer offset of integer length along its outward normal cone (a
 * Pythagorean triple or quadruple) and a radius equal to that length, give or take one grid step.
 * Casts reach such a pose at the end of the step, start in it, pass it tangentially (graze) or head
 * for it along the offset (approach).
 */
import fc from 'fast-check';
import type { Arr3, OBoxShape, OSphere, Q4, V3 } from '../oracle/oracle.js';
import { rotationMatrix } from '../oracle/oracle.js';

const STEP = 1 / 8;

/** integers in [lo, hi] times 1/8 */
const grid = (lo: number, hi: number): fc.Arbitrary<number> => fc.integer({ min: lo, max: hi }).map((i) => i * STEP);
const gridVec = (lo: number, hi: number): fc.Arbitrary<V3> => fc.tuple(grid(lo, hi), grid(lo, hi), grid(lo, hi)).map(([x, y, z]) => ({ x, y, z }));

/** The 24 quaternions with components in {0, ±1/2, ±1}: ±the axes and (±1/2, ±1/2, ±1/2, ±1/2). */
export const AXIS_QUATS: Q4[] = (() => {
  const out: Q4[] = [];
  for (let i = 0; i < 4; i++)
    for (const s of [1, -1]) {
      const c = [0, 0, 0, 0];
      c[i] = s;
      out.push({ x: c[0], y: c[1], z: c[2], w: c[3] });
    }
  for (let b = 0; b < 16; b++) out.push({ x: b & 1 ? -0.5 : 0.5, y: b & 2 ? -0.5 : 0.5, z: b & 4 ? -0.5 : 0.5, w: b & 8 ? -0.5 : 0.5 });
  return out;
})();

const gridRotation: fc.Arbitrary<Q4 | undefined> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constant<Q4>({ x: 0, y: 0, z: 0, w: 1 }) },
  { weight: 3, arbitrary: fc.constantFrom(...AXIS_QUATS) },
);

/** local → world for the grid rotations (signed permutations: exact in float64) */
function toWorld(center: V3, q: Q4 | undefined, l: Arr3): V3 {
  const m = rotationMatrix(q);
  return {
    x: center.x + (m[0] * l[0] + m[1] * l[1] + m[2] * l[2]),
    y: center.y + (m[3] * l[0] + m[4] * l[1] + m[5] * l[2]),
    z: center.z + (m[6] * l[0] + m[7] * l[1] + m[8] * l[2]),
  };
}
function dirToWorld(q: Q4 | undefined, l: Arr3): Arr3 {
  const w = toWorld({ x: 0, y: 0, z: 0 }, q, l);
  return [w.x, w.y, w.z];
}

/** Offsets of integer length with 1, 2 or 3 nonzero components (all positive), and that length. */
const OFFSETS: Record<1 | 2 | 3, Array<[number[], number]>> = {
  1: [[[1], 1], [[2], 2], [[3], 3], [[5], 5], [[8], 8]],
  2: [[[3, 4], 5], [[4, 3], 5], [[6, 8], 10], [[5, 12], 13], [[12, 5], 13], [[8, 15], 17], [[9, 12], 15]],
  3: [
    [[1, 2, 2], 3], [[2, 1, 2], 3], [[2, 2, 1], 3], [[2, 3, 6], 7], [[6, 2, 3], 7], [[3, 6, 2], 7], [[1, 4, 8], 9], [[4, 4, 7], 9],
    [[7, 4, 4], 9], [[2, 6, 9], 11], [[6, 6, 7], 11], [[3, 4, 12], 13], [[12, 3, 4], 13], [[2, 10, 11], 15], [[2, 5, 14], 15], [[8, 9, 12], 17],
  ],
};

/** A touching pose: the local surface point, the local offset to the centre and its exact length. */
interface Touch {
  surface: Arr3;
  off: Arr3;
  length: number;
  region: string;
}

/** A touching pose around the box with half extents h (all zero: around a point). */
const touchArb = (h: Arr3): fc.Arbitrary<Touch> =>
  fc
    .tuple(
      fc.tuple(fc.constantFrom(-1, 0, 1), fc.constantFrom(-1, 0, 1), fc.constantFrom(-1, 0, 1)),
      fc.constantFrom(0, 1, 2),
      fc.nat(100),
      fc.tuple(fc.nat(64), fc.nat(64), fc.nat(64)),
      fc.constantFrom(1 / 8, 1 / 4, 1 / 2, 1),
    )
    .map(([signs, fallback, pick, pos, unit]) => {
      const s = [...signs];
      if (s[0] === 0 && s[1] === 0 && s[2] === 0) s[fallback] = 1;
      const k = s.filter((v) => v !== 0).length as 1 | 2 | 3;
      const [mags, length] = OFFSETS[k][pick % OFFSETS[k].length];
      const surface: Arr3 = [0, 0, 0];
      const off: Arr3 = [0, 0, 0];
      let mi = 0;
      for (let j = 0; j < 3; j++) {
        const steps = Math.round(h[j] / STEP);
        if (s[j] === 0) surface[j] = ((pos[j] % (2 * steps + 1)) - steps) * STEP;
        else {
          surface[j] = s[j] * h[j];
          off[j] = s[j] * mags[mi++] * unit;
        }
      }
      return { surface, off, length: length * unit, region: ['face', 'edge', 'vertex'][k - 1] };
    });

/** the radius variants: touching exactly, one grid step into overlap, one grid step short */
const radiusVariant = fc.constantFrom<[string, number]>(['touch', 0], ['touch', 0], ['over', STEP], ['short', -STEP]);

export interface GridSBScene {
  kind: string;
  sphere: OSphere;
  box: OBoxShape;
}
export interface GridSBCast extends GridSBScene {
  motion: V3;
}

const gridBox: fc.Arbitrary<OBoxShape> = fc
  .tuple(gridVec(-64, 64), fc.tuple(grid(0, 32), grid(0, 32), grid(0, 32)), gridRotation, fc.nat(7))
  .map(([center, [hx, hy, hz], rotation, zero]) => {
    // now and then a zero half extent (rectangle, segment or point box)
    const h = { x: zero === 1 ? 0 : hx, y: zero === 2 ? 0 : hy, z: zero === 3 ? 0 : hz };
    return rotation === undefined ? { center, halfExtents: h } : { center, halfExtents: h, rotation };
  });

const hArr = (b: OBoxShape): Arr3 => [b.halfExtents.x, b.halfExtents.y, b.halfExtents.z];

/** A sphere touching (or one step from touching) the box; the local offset is returned for casts. */
const sbTouch: fc.Arbitrary<GridSBScene & { offWorld: Arr3 }> = gridBox.chain((box) =>
  fc.tuple(touchArb(hArr(box)), radiusVariant).map(([t, [variant, dr]]) => {
    const local: Arr3 = [t.surface[0] + t.off[0], t.surface[1] + t.off[1], t.surface[2] + t.off[2]];
    return {
      kind: `grid-${variant}-${t.region}`,
      box,
      sphere: { center: toWorld(box.center, box.rotation, local), radius: Math.max(0, t.length + dr) },
      offWorld: dirToWorld(box.rotation, t.off),
    };
  }),
);

const sbRandom: fc.Arbitrary<GridSBScene> = fc
  .tuple(gridBox, gridVec(-96, 96), grid(0, 32))
  .map(([box, off, r]) => ({ kind: 'grid-random', box, sphere: { center: { x: box.center.x + off.x, y: box.center.y + off.y, z: box.center.z + off.z }, radius: r } }));

/** centre on the grid inside the box or on its surface: exact tie-breaks */
const sbInside: fc.Arbitrary<GridSBScene> = gridBox.chain((box) =>
  fc.tuple(fc.tuple(fc.nat(64), fc.nat(64), fc.nat(64)), grid(0, 16)).map(([pos, r]) => {
    const h = hArr(box);
    const l = h.map((hj, j) => {
      const steps = Math.round(hj / STEP);
      return ((pos[j] % (2 * steps + 1)) - steps) * STEP;
    }) as Arr3;
    return { kind: 'grid-inside', box, sphere: { center: toWorld(box.center, box.rotation, l), radius: r } };
  }),
);

export const gridSBSceneArb: fc.Arbitrary<GridSBScene> = fc.oneof(
  { weight: 2, arbitrary: sbRandom },
  { weight: 4, arbitrary: sbTouch.map(({ offWorld: _, ...sc }) => sc) },
  { weight: 2, arbitrary: sbInside },
);

const gridMotion = gridVec(-128, 128);
/** a small integer vector (for tangents) */
const smallInts = fc.tuple(fc.integer({ min: -4, max: 4 }), fc.integer({ min: -4, max: 4 }), fc.integer({ min: -4, max: 4 }));
const cross = (a: Arr3, b: Arr3): Arr3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const addV = (c: V3, v: Arr3, f = 1): V3 => ({ x: c.x + f * v[0], y: c.y + f * v[1], z: c.z + f * v[2] });
const arr = (v: V3): Arr3 => [v.x, v.y, v.z];

/**
 * The cast variants around a touching pose `c` with world offset direction `off`:
 * end (the step ends there), start (it starts there), graze (it passes there tangentially) and
 * approach (along −off, touching at t = j/i).
 */
function castAround<T extends { kind: string }>(
  sc: T,
  c: V3,
  off: Arr3,
  place: (sc: T, center: V3) => T,
): fc.Arbitrary<T & { motion: V3 }> {
  return fc
    .tuple(fc.constantFrom('end', 'end', 'start', 'graze', 'graze', 'approach'), gridMotion, smallInts, fc.constantFrom(0, 0.25, 0.5, 0.75, 1, 1.25, -0.25), fc.integer({ min: 1, max: 16 }), fc.nat(16))
    .map(([variant, m, v, f, i, j]) => {
      let motion: Arr3;
      let start: V3;
      if (variant === 'end') {
        motion = arr(m);
        start = addV(c, motion, -1);
      } else if (variant === 'start') {
        motion = arr(m);
        start = c;
      } else if (variant === 'graze') {
        motion = cross(off, v);
        if (motion[0] === 0 && motion[1] === 0 && motion[2] === 0) motion = cross(off, [v[1] + 1, v[2] - 1, v[0] + 3]);
        start = addV(c, motion, -f);
      } else {
        motion = [(-off[0] * i) / 8, (-off[1] * i) / 8, (-off[2] * i) / 8];
        start = addV(c, off, j / 8);
      }
      return { ...place(sc, start), kind: `${sc.kind}-${variant}`, motion: { x: motion[0], y: motion[1], z: motion[2] } };
    });
}

export const gridSBCastArb: fc.Arbitrary<GridSBCast> = fc.oneof(
  { weight: 1, arbitrary: fc.tuple(sbRandom, gridMotion).map(([sc, motion]) => ({ ...sc, kind: 'grid-random-cast', motion })) },
  { weight: 4, arbitrary: sbTouch.chain(({ offWorld, ...sc }) => castAround<GridSBScene>(sc, sc.sphere.center, offWorld, (s, center) => ({ ...s, sphere: { center, radius: s.sphere.radius } }))) },
);

export interface GridSSScene {
  kind: string;
  a: OSphere;
  b: OSphere;
}
export interface GridSSCast extends GridSSScene {
  motion: V3;
}

/** a touching pair (or one step from it): b anywhere, a at an integer-length offset, ra + rb = length */
const ssTouch: fc.Arbitrary<GridSSScene & { off: Arr3 }> = fc
  .tuple(gridVec(-64, 64), touchArb([0, 0, 0]), radiusVariant, fc.nat(64))
  .map(([cb, t, [variant, dr], split]) => {
    const total = Math.max(0, t.length + dr);
    const steps = Math.round(total / STEP);
    const rb = (split % (steps + 1)) * STEP;
    return { kind: `grid-${variant}-${t.region}`, a: { center: addV(cb, t.off), radius: total - rb }, b: { center: cb, radius: rb }, off: t.off };
  });

const ssRandom: fc.Arbitrary<GridSSScene> = fc
  .tuple(gridVec(-64, 64), gridVec(-64, 64), grid(0, 32), grid(0, 32), fc.nat(9))
  .map(([ca, cb, ra, rb, same]) => ({ kind: same === 0 ? 'grid-coincident' : 'grid-random', a: { center: same === 0 ? cb : ca, radius: ra }, b: { center: cb, radius: rb } }));

export const gridSSSceneArb: fc.Arbitrary<GridSSScene> = fc.oneof(
  { weight: 1, arbitrary: ssRandom },
  { weight: 2, arbitrary: ssTouch.map(({ off: _, ...sc }) => sc) },
);

export const gridSSCastArb: fc.Arbitrary<GridSSCast> = fc.oneof(
  { weight: 1, arbitrary: fc.tuple(ssRandom, gridMotion).map(([sc, motion]) => ({ ...sc, kind: `${sc.kind}-cast`, motion })) },
  { weight: 4, arbitrary: ssTouch.chain(({ off, ...sc }) => castAround<GridSSScene>(sc, sc.a.center, off, (s, center) => ({ ...s, a: { center, radius: s.a.radius } }))) },
);
