/**
 * fast-check arbitraries shared by the geometry property tests.
 *
 * Doubles are built from integers (53 random bits) rather than fc.double, whose index-uniform
 * distribution is dominated by tiny magnitudes. Every scene carries a `kind` tag for diagnostics.
 */
import fc from 'fast-check';
import {
  OBox,
  type Arr3,
  type OBoxShape,
  type OSphere,
  type Q4,
  type V3,
  add3,
  norm3,
  scale3,
  toArr,
  toV3,
} from '../oracle/oracle.js';

// ---------------------------------------------------------------------------------------------
// Scalars

/**
 * uniform-ish in [0, 1) from 31 random bits (one integer draw: generation speed matters at 100k
 * runs per property; fast-check's small-value bias adds extra mass near 0, which is welcome).
 * Later arithmetic (scaling, rotation, normalisation) fills the remaining mantissa bits.
 */
export const u01: fc.Arbitrary<number> = fc.nat().map((a) => a / 2 ** 31);

export const uRange = (lo: number, hi: number): fc.Arbitrary<number> => u01.map((u) => lo + (hi - lo) * u);

export const vecIn = (lo: number, hi: number): fc.Arbitrary<V3> =>
  fc.tuple(uRange(lo, hi), uRange(lo, hi), uRange(lo, hi)).map(([x, y, z]) => ({ x, y, z }));

/** a uniformly random unit direction */
export const unitDir: fc.Arbitrary<Arr3> = fc
  .tuple(uRange(-1, 1), uRange(-1, 1), uRange(-1, 1))
  .map(([x, y, z]): Arr3 => {
    const n = Math.hypot(x, y, z);
    return n < 1e-6 ? [0, 0, 1] : [x / n, y / n, z / n];
  });

export function nextUp(x: number): number {
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x === 0) return Number.MIN_VALUE;
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  let bits = buf.getBigUint64(0);
  bits = x > 0 ? bits + 1n : bits - 1n;
  buf.setBigUint64(0, bits);
  return buf.getFloat64(0);
}
export const nextDown = (x: number): number => -nextUp(-x);
/** one ulp further from zero */
export const nextAway = (x: number): number => (x >= 0 ? nextUp(x) : nextDown(x));
export const ulpOf = (x: number): number => nextUp(Math.abs(x)) - Math.abs(x);
/**
 * Move x away from zero by one ulp of the largest magnitude among x and `ctx` (the other
 * coordinates the value is combined with), so that every sum/difference of the scene stays exact.
 */
export const bumpAway = (x: number, ...ctx: number[]): number => {
  const u = Math.max(ulpOf(x), ...ctx.map(ulpOf));
  return x >= 0 ? x + u : x - u;
};

// ---------------------------------------------------------------------------------------------
// Rotations

const S = Math.SQRT1_2;

export const randomQuat: fc.Arbitrary<Q4> = fc
  .tuple(uRange(-1, 1), uRange(-1, 1), uRange(-1, 1), uRange(-1, 1))
  .map(([x, y, z, w]) => {
    const n = Math.hypot(x, y, z, w);
    if (n < 1e-3) return { x: 0, y: 0, z: 0, w: 1 };
    return { x: x / n, y: y / n, z: z / n, w: w / n };
  });

export const axisAngleQuat = (axis: 0 | 1 | 2, angle: number): Q4 => {
  const s = Math.sin(angle / 2);
  const c = Math.cos(angle / 2);
  return { x: axis === 0 ? s : 0, y: axis === 1 ? s : 0, z: axis === 2 ? s : 0, w: c };
};

export const zRotation: fc.Arbitrary<Q4> = uRange(-Math.PI, Math.PI).map((a) => axisAngleQuat(2, a));

const specialQuats: Q4[] = [
  { x: 0, y: 0, z: 0, w: 1 },
  { x: 0, y: 0, z: 0, w: -1 },
  { x: 1, y: 0, z: 0, w: 0 },
  { x: 0, y: 1, z: 0, w: 0 },
  { x: 0, y: 0, z: 1, w: 0 },
  { x: S, y: 0, z: 0, w: S },
  { x: 0, y: S, z: 0, w: S },
  { x: 0, y: 0, z: S, w: S },
  { x: 0, y: 0, z: -S, w: S },
  { x: 0.5, y: 0.5, z: 0.5, w: 0.5 },
];

/** undefined = axis-aligned (key omitted by the box builder) */
export const rotationArb: fc.Arbitrary<Q4 | undefined> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom(...specialQuats) },
  { weight: 4, arbitrary: randomQuat },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom<0 | 1 | 2>(0, 1, 2), uRange(-Math.PI, Math.PI))
      .map(([ax, a]) => axisAngleQuat(ax, a)),
  },
);

// ---------------------------------------------------------------------------------------------
// Shapes

export function makeBox(center: V3, halfExtents: V3, rotation: Q4 | undefined): OBoxShape {
  return rotation === undefined ? { center, halfExtents } : { center, halfExtents, rotation };
}

const halfExtent = fc.oneof(
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 5, arbitrary: uRange(0, 5) },
  { weight: 1, arbitrary: uRange(0, 0.01) },
);

export const boxArb: fc.Arbitrary<OBoxShape> = fc
  .tuple(vecIn(-10, 10), fc.tuple(halfExtent, halfExtent, halfExtent), rotationArb)
  .map(([c, [hx, hy, hz], q]) => makeBox(c, { x: hx, y: hy, z: hz }, q));

export const radiusArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 6, arbitrary: uRange(0, 6) },
  { weight: 1, arbitrary: uRange(0, 0.01) },
);

/** Global scale factors (10^-3 .. 10^3) and translations applied to a whole scene. */
export const sceneScale = fc.oneof(
  { weight: 4, arbitrary: fc.constant(1) },
  { weight: 2, arbitrary: uRange(-3, 3).map((e) => 10 ** e) },
  { weight: 1, arbitrary: fc.constantFrom(2 ** -20, 2 ** 20) },
);
export const sceneOffset = fc.oneof(
  { weight: 6, arbitrary: fc.constant<V3>({ x: 0, y: 0, z: 0 }) },
  { weight: 1, arbitrary: vecIn(-1e4, 1e4) },
);

/**
 * A mixture of scene kinds, given as [weight, arbitrary] pairs; each scene is then scaled by
 * sceneScale and moved by sceneOffset through `scale`.
 */
function scaledMixture<T>(scale: (sc: T, s: number, o: V3) => T, ...kinds: Array<[number, fc.Arbitrary<T>]>): fc.Arbitrary<T> {
  const weighted = kinds.map(([weight, arbitrary]) => ({ weight, arbitrary }));
  return fc.tuple(fc.oneof(...weighted), sceneScale, sceneOffset).map(([sc, s, o]) => scale(sc, s, o));
}

const sv = (v: V3, s: number, o: V3 = { x: 0, y: 0, z: 0 }): V3 => ({
  x: v.x * s + o.x,
  y: v.y * s + o.y,
  z: v.z * s + o.z,
});

export interface SBScene {
  kind: string;
  sphere: OSphere;
  box: OBoxShape;
}

function scaleSB(sc: SBScene, s: number, o: V3): SBScene {
  const { box, sphere } = sc;
  return {
    kind: sc.kind,
    sphere: { center: sv(sphere.center, s, o), radius: sphere.radius * s },
    box: makeBox(sv(box.center, s, o), sv(box.halfExtents, s), box.rotation),
  };
}

/** arbitrary sphere anywhere around the box */
const sbRandom: fc.Arbitrary<SBScene> = fc
  .tuple(boxArb, vecIn(-15, 15), radiusArb)
  .map(([box, off, r]) => ({
    kind: 'random',
    box,
    sphere: { center: add3V(box.center, off), radius: r },
  }));

function add3V(a: V3, b: V3): V3 {
  return { x: a.x + b.x, y: a.y + b.y, z: a.z + b.z };
}

/** local coordinate inside [-h, h] with some probability of exactly 0 or exactly on a face */
const insideCoord = fc.oneof(
  { weight: 6, arbitrary: uRange(-1, 1) },
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 1) },
);

/** sphere centre inside the box (or exactly on the surface / at the centre) */
const sbInside: fc.Arbitrary<SBScene> = fc
  .tuple(boxArb, fc.tuple(insideCoord, insideCoord, insideCoord), radiusArb)
  .map(([box, [a, b, c], r]) => {
    const ob = new OBox(box);
    const l: Arr3 = [a * ob.h[0], b * ob.h[1], c * ob.h[2]];
    return { kind: 'inside', box, sphere: { center: toV3(ob.toWorld(l)), radius: r } };
  });

/**
 * A surface point of the box (face, edge or vertex region), an outward normal of its normal cone,
 * and a signed distance along it: used for near-touching spheres and grazing casts.
 */
export interface SurfaceSample {
  local: Arr3;
  /** outward unit direction in local coordinates, inside the normal cone at `local` */
  nLocal: Arr3;
  region: string;
}

export const surfaceSample = (h: Arr3): fc.Arbitrary<SurfaceSample> =>
  fc
    .tuple(
      fc.tuple(fc.constantFrom(-1, 0, 1), fc.constantFrom(-1, 0, 1), fc.constantFrom(-1, 0, 1)),
      fc.tuple(uRange(-1, 1), uRange(-1, 1), uRange(-1, 1)),
      fc.tuple(uRange(0.05, 1), uRange(0.05, 1), uRange(0.05, 1)),
      fc.constantFrom(0, 1, 2),
    )
    .map(([signs, pos, w, fallbackAxis]) => {
      const s = [...signs];
      if (s[0] === 0 && s[1] === 0 && s[2] === 0) s[fallbackAxis] = 1;
      const local: Arr3 = [0, 0, 0];
      const n: Arr3 = [0, 0, 0];
      for (let j = 0; j < 3; j++) {
        local[j] = s[j] === 0 ? pos[j] * h[j] : s[j] * h[j];
        n[j] = s[j] * w[j];
      }
      const k = s.filter((v) => v !== 0).length;
      return { local, nLocal: scale3(n, 1 / norm3(n)), region: ['face', 'edge', 'vertex'][k - 1] };
    });

export const relOffset = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.constantFrom(1e-15, 1e-12, 1e-9, 1e-6, 1e-3, 0.1), fc.constantFrom(-1, 1))
      .map(([m, s]) => m * s),
  },
);

/** sphere at distance r*(1+delta) (+delta) from a random surface point along its outward normal */
const sbNearSurface: fc.Arbitrary<SBScene> = boxArb.chain((box) => {
  const ob = new OBox(box);
  return fc.tuple(surfaceSample(ob.h), radiusArb, relOffset).map(([ss, r, d]) => {
    const dist = r + d * Math.max(r, 1);
    const cl = add3(ss.local, scale3(ss.nLocal, dist));
    return {
      kind: `near-${ss.region}`,
      box,
      sphere: { center: toV3(ob.toWorld(cl)), radius: r },
    };
  });
});

/** 2D: everything in the z = 0 plane, rotation about z, any half extent z >= 0 */
const sb2D: fc.Arbitrary<SBScene> = fc
  .tuple(
    vecIn(-10, 10),
    fc.tuple(halfExtent, halfExtent, halfExtent),
    fc.oneof(fc.constant(undefined), zRotation),
    vecIn(-15, 15),
    radiusArb,
  )
  .map(([c, [hx, hy, hz], q, off, r]) => {
    const box = makeBox({ x: c.x, y: c.y, z: 0 }, { x: hx, y: hy, z: hz }, q);
    return { kind: '2d', box, sphere: { center: { x: c.x + off.x, y: c.y + off.y, z: 0 }, radius: r } };
  });

export const sbSceneArb: fc.Arbitrary<SBScene> = scaledMixture(scaleSB, [4, sbRandom], [2, sbInside], [4, sbNearSurface], [1, sb2D]);

// ---------------------------------------------------------------------------------------------
// Exact integer scenes (axis-aligned; all float arithmetic involved is exact)

/** integer offsets with integer length, one per region type (first component > 0 etc.) */
const pythagorean: Record<1 | 2 | 3, Array<[number[], number]>> = {
  1: [[[1], 1], [[2], 2], [[3], 3], [[5], 5], [[7], 7]],
  2: [
    [[3, 4], 5],
    [[4, 3], 5],
    [[6, 8], 10],
    [[5, 12], 13],
    [[12, 5], 13],
    [[8, 15], 17],
  ],
  3: [
    [[1, 2, 2], 3],
    [[2, 1, 2], 3],
    [[2, 2, 1], 3],
    [[2, 3, 6], 7],
    [[6, 2, 3], 7],
    [[3, 6, 2], 7],
    [[1, 4, 8], 9],
    [[4, 4, 7], 9],
    [[2, 6, 9], 11],
  ],
};

export interface ExactTouch {
  box: OBoxShape;
  /** integer surface point (local to the box centre) */
  q: Arr3;
  /** integer offset from q to the touching sphere centre, in the normal cone at q */
  off: Arr3;
  /** |off|, an integer */
  D: number;
  signs: Arr3;
  region: string;
}

const exactRotation = fc.constantFrom<Q4 | undefined>(undefined, undefined, { x: 0, y: 0, z: 0, w: 1 });

export const exactTouchArb: fc.Arbitrary<ExactTouch> = fc
  .tuple(
    fc.tuple(fc.integer({ min: -8, max: 8 }), fc.integer({ min: -8, max: 8 }), fc.integer({ min: -8, max: 8 })),
    fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 })),
    exactRotation,
    fc.tuple(fc.constantFrom(-1, 0, 1), fc.constantFrom(-1, 0, 1), fc.constantFrom(-1, 0, 1)),
    fc.constantFrom(0, 1, 2),
    fc.nat(100),
    fc.tuple(fc.nat(8), fc.nat(8), fc.nat(8)),
  )
  .map(([c, h, rot, signs, fallback, pick, pos]) => {
    const s: Arr3 = [signs[0], signs[1], signs[2]];
    if (s[0] === 0 && s[1] === 0 && s[2] === 0) s[fallback] = 1;
    const k = (s.filter((v) => v !== 0).length) as 1 | 2 | 3;
    const [mags, D] = pythagorean[k][pick % pythagorean[k].length];
    const q: Arr3 = [0, 0, 0];
    const off: Arr3 = [0, 0, 0];
    let mi = 0;
    for (let j = 0; j < 3; j++) {
      if (s[j] === 0) {
        q[j] = (pos[j] % (2 * h[j] + 1)) - h[j]; // integer in [-h, h]
      } else {
        q[j] = s[j] * h[j];
        off[j] = s[j] * mags[mi++];
      }
    }
    const box = makeBox({ x: c[0], y: c[1], z: c[2] }, { x: h[0], y: h[1], z: h[2] }, rot);
    return { box, q, off, D, signs: s, region: ['face', 'edge', 'vertex'][k - 1] };
  });

export interface ExactSBScene extends SBScene {
  expectOverlap: boolean;
  /** exact expected depth when it is exactly representable (touching / inside) */
  expectDepth?: number;
}

const pow2 = fc.integer({ min: -6, max: 6 }).map((k) => 2 ** k);

function scaleExact(sc: ExactSBScene, s: number): ExactSBScene {
  const r = scaleSB(sc, s, { x: 0, y: 0, z: 0 });
  return {
    ...r,
    expectOverlap: sc.expectOverlap,
    ...(sc.expectDepth === undefined ? {} : { expectDepth: sc.expectDepth * s }),
  };
}

/**
 * Exact touching / just-separated / overlapping spheres against face, edge and vertex regions,
 * plus integer centres inside (tie-break cases). Scaled by powers of two (still exact).
 */
export const exactSBArb: fc.Arbitrary<ExactSBScene> = fc
  .tuple(
    exactTouchArb,
    fc.constantFrom('touch', 'touch', 'ulpR', 'ulpC', 'bigger', 'smaller', 'insideInt'),
    fc.integer({ min: 1, max: 3 }),
    fc.nat(2),
    fc.tuple(fc.nat(8), fc.nat(8), fc.nat(8)),
    fc.integer({ min: 0, max: 5 }),
    pow2,
  )
  .map(([t, variant, k, axisPick, ipos, ir, s]) => {
    const ob = new OBox(t.box);
    const cLocal = add3(t.q, t.off);
    const centerOf = (l: Arr3): V3 => toV3(add3(ob.c, l));
    let sc: ExactSBScene;
    switch (variant) {
      case 'touch':
        sc = { kind: `touch-${t.region}`, box: t.box, sphere: { center: centerOf(cLocal), radius: t.D }, expectOverlap: true, expectDepth: 0 };
        break;
      case 'bigger':
        sc = { kind: `bigger-${t.region}`, box: t.box, sphere: { center: centerOf(cLocal), radius: t.D + k }, expectOverlap: true, expectDepth: k };
        break;
      case 'smaller':
        sc = { kind: `smaller-${t.region}`, box: t.box, sphere: { center: centerOf(cLocal), radius: Math.max(0, t.D - k) }, expectOverlap: false };
        break;
      case 'ulpR':
        sc = { kind: `ulpR-${t.region}`, box: t.box, sphere: { center: centerOf(cLocal), radius: nextDown(t.D) }, expectOverlap: false };
        break;
      case 'ulpC': {
        // move the centre one ulp further out along the offset axis. Face regions only: for edges
        // and vertices the squared distance D^2 + 2*o*ulp generally rounds back to D^2 in float64,
        // so "one ulp further" is not decidable there (the ulpR variant covers those regions).
        if (t.region !== 'face') {
          sc = { kind: `ulpR-${t.region}`, box: t.box, sphere: { center: centerOf(cLocal), radius: nextDown(t.D) }, expectOverlap: false };
          break;
        }
        const nz = [0, 1, 2].filter((j) => t.off[j] !== 0);
        const j = nz[axisPick % nz.length];
        const l: Arr3 = [cLocal[0], cLocal[1], cLocal[2]];
        const boxC: Arr3 = [ob.c[0], ob.c[1], ob.c[2]];
        l[j] = bumpAway(l[j], boxC[j], boxC[j] + l[j]);
        if (boxC[j] + l[j] - boxC[j] !== l[j]) throw new Error('generator: inexact ulpC');
        const box = makeBox(toV3(boxC), t.box.halfExtents, t.box.rotation);
        const c = add3(boxC, l);
        sc = { kind: `ulpC-${t.region}`, box, sphere: { center: toV3(c), radius: t.D }, expectOverlap: false };
        break;
      }
      default: {
        // integer centre inside or on the surface: ties are frequent here
        const l: Arr3 = [0, 0, 0];
        for (let j = 0; j < 3; j++) l[j] = (ipos[j] % (2 * ob.h[j] + 1)) - ob.h[j];
        let pen = Infinity;
        for (let j = 0; j < 3; j++) pen = Math.min(pen, ob.h[j] - Math.abs(l[j]));
        sc = { kind: 'insideInt', box: t.box, sphere: { center: centerOf(l), radius: ir }, expectOverlap: true, expectDepth: ir + pen };
      }
    }
    return scaleExact(sc, s);
  });

// ---------------------------------------------------------------------------------------------
// Casts (sphere - box)

export interface SBCast extends SBScene {
  motion: V3;
}

function scaleCast(sc: SBCast, s: number, o: V3): SBCast {
  return { ...scaleSB(sc, s, o), motion: sv(sc.motion, s) };
}

const motionArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant<V3>({ x: 0, y: 0, z: 0 }) },
  { weight: 6, arbitrary: vecIn(-40, 40) },
  { weight: 1, arbitrary: vecIn(-1e-3, 1e-3) },
);

const castRandom: fc.Arbitrary<SBCast> = fc.tuple(sbSceneArb, motionArb).map(([sc, m]) => ({ ...sc, kind: `cast-${sc.kind}`, motion: m }));

/** aimed at a random point of the box expanded by r; the step ends short of, at, or past it */
const castAimed: fc.Arbitrary<SBCast> = boxArb.chain((box) => {
  const ob = new OBox(box);
  return fc
    .tuple(
      fc.tuple(uRange(-1, 1), uRange(-1, 1), uRange(-1, 1)),
      radiusArb,
      unitDir,
      uRange(0, 30),
      fc.oneof(uRange(0.2, 3), fc.constantFrom(0.5, 1, 2)),
    )
    .map(([a, r, dir, dist, k]) => {
      const target = ob.toWorld([a[0] * (ob.h[0] + r), a[1] * (ob.h[1] + r), a[2] * (ob.h[2] + r)]);
      const start = add3(target, scale3(dir, dist + r + norm3(ob.h)));
      const m = scale3(add3(target, scale3(start, -1)), k);
      return { kind: 'cast-aimed', box, sphere: { center: toV3(start), radius: r }, motion: toV3(m) };
    });
});

/** huge motions: start ~1e6 shape sizes away, pass through / near the box, end far behind it */
const castHuge: fc.Arbitrary<SBCast> = boxArb.chain((box) => {
  const ob = new OBox(box);
  return fc
    .tuple(fc.tuple(uRange(-1.2, 1.2), uRange(-1.2, 1.2), uRange(-1.2, 1.2)), radiusArb, unitDir, uRange(5e5, 2e6), uRange(0.3, 2.5))
    .map(([a, r, dir, far, k]) => {
      const target = ob.toWorld([a[0] * (ob.h[0] + r), a[1] * (ob.h[1] + r), a[2] * (ob.h[2] + r)]);
      // "huge" = 1e6 times the shapes (the spec's regime); the ratio is what matters, not the units
      const size = Math.max(norm3(ob.h), r) || 1;
      const start = add3(target, scale3(dir, far * size));
      const m = scale3(dir, -far * size * k);
      return { kind: 'cast-huge', box, sphere: { center: toV3(start), radius: r }, motion: toV3(m) };
    });
});

/** grazing: moves along a tangent line of the expanded box (min gap ~ 0, or +-delta) */
const castGraze: fc.Arbitrary<SBCast> = boxArb.chain((box) => {
  const ob = new OBox(box);
  return fc
    .tuple(surfaceSample(ob.h), radiusArb, relOffset, unitDir, uRange(0.5, 40), uRange(0, 1.2))
    .map(([ss, r, d, rnd, len, frac]) => {
      // tangent direction: random direction with its normal component removed
      const n = ss.nLocal;
      let t = add3(rnd, scale3(n, -(rnd[0] * n[0] + rnd[1] * n[1] + rnd[2] * n[2])));
      const tn = norm3(t);
      t = tn < 1e-6 ? (Math.abs(n[0]) < 0.9 ? [n[2], 0, -n[0]] : [0, n[2], -n[1]]) : scale3(t, 1 / tn);
      t = scale3(t, 1 / norm3(t));
      const dist = r + d * Math.max(r, 1);
      const p = add3(ss.local, scale3(n, dist));
      const startLocal = add3(p, scale3(t, -len * frac));
      const mLocal = scale3(t, len);
      return {
        kind: `cast-graze-${ss.region}`,
        box,
        sphere: { center: toV3(ob.toWorld(startLocal)), radius: r },
        motion: toV3(ob.dirToWorld(mLocal)),
      };
    });
});

/** thin / flat boxes crossed within one step */
const castThin: fc.Arbitrary<SBCast> = fc
  .tuple(vecIn(-5, 5), uRange(0, 4), uRange(0, 4), fc.constantFrom(0, 0, 1e-9, 1e-3), rotationArb, radiusArb, uRange(1, 1e4), uRange(-0.9, 0.9), uRange(-0.9, 0.9))
  .map(([c, hx, hy, hz, q, r, far, u, v]) => {
    const box = makeBox(c, { x: hx, y: hy, z: hz }, q);
    const ob = new OBox(box);
    const start = ob.toWorld([u * hx, v * hy, far]);
    const m = ob.dirToWorld([0, 0, -2 * far]);
    return { kind: 'cast-thin', box, sphere: { center: toV3(start), radius: r }, motion: toV3(m) };
  });

export const sbCastArb: fc.Arbitrary<SBCast> = scaledMixture(scaleCast, [3, castRandom], [3, castAimed], [1, castHuge], [3, castGraze], [1, castThin]);

/**
 * The expected outcome of moving by b toward a first touch a away (integers >= 0): a hit iff
 * a <= b, at toi a / b (exactly 0 when a = 0).
 */
const arrival = (a: number, b: number): { expectHit: boolean; expectToi?: number } =>
  a <= b ? { expectHit: true, expectToi: a === 0 ? 0 : a / b } : { expectHit: false };

export interface ExactSBCast extends SBCast {
  expectHit: boolean;
  expectToi?: number;
  /** toi tolerance (grazing cases are ill-conditioned) */
  toiTol: number;
}

/**
 * Exact axis-aligned casts along a coordinate axis towards a touching configuration:
 * first touch after travelling exactly `a` out of a motion of length `b`.
 */
export const exactSBCastArb: fc.Arbitrary<ExactSBCast> = fc
  .tuple(
    exactTouchArb,
    fc.nat(2),
    fc.integer({ min: 0, max: 6 }),
    fc.integer({ min: 0, max: 8 }),
    fc.constantFrom('approach', 'approach', 'away', 'ulpStart', 'parallel'),
    pow2,
  )
  .map(([t, axisPick, a, b, variant, s]) => {
    const ob = new OBox(t.box);
    const nz = [0, 1, 2].filter((j) => t.off[j] !== 0);
    const j = nz[axisPick % nz.length];
    const dirOut: Arr3 = [0, 0, 0];
    dirOut[j] = Math.sign(t.off[j]);
    const touch = add3(t.q, t.off); // local touching centre
    let sc: ExactSBCast;
    if (variant === 'approach') {
      const start = add3(touch, scale3(dirOut, a));
      const m = scale3(dirOut, -b);
      sc = {
        kind: `xcast-approach-${t.region}`,
        box: t.box,
        sphere: { center: toV3(add3(ob.c, start)), radius: t.D },
        motion: toV3(m),
        ...arrival(a, b),
        toiTol: 1e-12,
      };
    } else if (variant === 'away') {
      const start = add3(touch, scale3(dirOut, a));
      sc = {
        kind: `xcast-away-${t.region}`,
        box: t.box,
        sphere: { center: toV3(add3(ob.c, start)), radius: t.D },
        motion: toV3(scale3(dirOut, b)),
        expectHit: a === 0,
        ...(a === 0 ? { expectToi: 0 } : {}),
        toiTol: 0,
      };
    } else if (variant === 'ulpStart' && t.region === 'face') {
      // start one ulp (of the offset coordinate) further out, travel exactly to the touching pose
      // (face regions only, see exactSBArb's ulpC)
      const aa = Math.max(a, 1);
      const start = add3(touch, scale3(dirOut, aa));
      const boxC: Arr3 = [ob.c[0], ob.c[1], ob.c[2]];
      start[j] = bumpAway(start[j], boxC[j], boxC[j] + start[j], boxC[j] + touch[j]);
      if (boxC[j] + start[j] - boxC[j] !== start[j]) throw new Error('generator: inexact ulpStart');
      const box = makeBox(toV3(boxC), t.box.halfExtents, t.box.rotation);
      sc = {
        kind: `xcast-ulpStart-${t.region}`,
        box,
        sphere: { center: toV3(add3(boxC, start)), radius: t.D },
        motion: toV3(scale3(dirOut, -aa)),
        expectHit: false,
        toiTol: 0,
      };
    } else if (variant === 'ulpStart') {
      // edge / vertex: travel exactly to the touching pose with a radius one ulp short
      const aa = Math.max(a, 1);
      const start = add3(touch, scale3(dirOut, aa));
      sc = {
        kind: `xcast-ulpR-${t.region}`,
        box: t.box,
        sphere: { center: toV3(add3(ob.c, start)), radius: nextDown(t.D) },
        motion: toV3(scale3(dirOut, -aa)),
        expectHit: false,
        toiTol: 0,
      };
    } else {
      // parallel to a face at exactly touching distance: face region only; slide in from beyond
      // an edge along a tangent axis, touching first when the centre passes over the edge line.
      const fj = [0, 1, 2].find((i) => t.signs[i] !== 0)!;
      const tj = (fj + 1 + (axisPick % 2)) % 3;
      const start = add3(t.q, scale3([fj === 0 ? 1 : 0, fj === 1 ? 1 : 0, fj === 2 ? 1 : 0], t.signs[fj] * t.D));
      // move tangentially to beyond the +tangent edge by a
      start[tj] = ob.h[tj] + a;
      const m: Arr3 = [0, 0, 0];
      m[tj] = -b;
      sc = {
        kind: 'xcast-parallel',
        box: t.box,
        sphere: { center: toV3(add3(ob.c, start)), radius: t.D },
        motion: toV3(m),
        ...arrival(a, b),
        // grazing: f(t) ~ (dt)^2 near the touch; a sqrt(eps) loss in toi is inherent
        toiTol: 1e-6,
      };
    }
    const scaled = scaleCast(sc, s, { x: 0, y: 0, z: 0 });
    return { ...sc, ...scaled };
  });

// ---------------------------------------------------------------------------------------------
// Sphere - sphere

export interface SSScene {
  kind: string;
  a: OSphere;
  b: OSphere;
}
export interface SSCast extends SSScene {
  motion: V3;
}

function scaleSS<T extends SSScene & { motion?: V3 }>(sc: T, s: number, o: V3): T {
  const out: T = {
    ...sc,
    a: { center: sv(sc.a.center, s, o), radius: sc.a.radius * s },
    b: { center: sv(sc.b.center, s, o), radius: sc.b.radius * s },
  };
  if (sc.motion) out.motion = sv(sc.motion, s);
  return out;
}

const ssRandom: fc.Arbitrary<SSScene> = fc
  .tuple(vecIn(-10, 10), vecIn(-15, 15), radiusArb, radiusArb)
  .map(([cb, off, ra, rb]) => ({ kind: 'random', a: { center: add3V(cb, off), radius: ra }, b: { center: cb, radius: rb } }));

const ssNear: fc.Arbitrary<SSScene> = fc
  .tuple(vecIn(-10, 10), unitDir, radiusArb, radiusArb, relOffset)
  .map(([cb, dir, ra, rb, d]) => {
    const R = ra + rb;
    const dist = Math.max(0, R + d * Math.max(R, 1));
    return { kind: 'near', a: { center: toV3(add3(toArr(cb), scale3(dir, dist))), radius: ra }, b: { center: cb, radius: rb } };
  });

const ssCoincident: fc.Arbitrary<SSScene> = fc
  .tuple(vecIn(-10, 10), radiusArb, radiusArb)
  .map(([c, ra, rb]) => ({ kind: 'coincident', a: { center: { ...c }, radius: ra }, b: { center: { ...c }, radius: rb } }));

const ssContained: fc.Arbitrary<SSScene> = fc
  .tuple(vecIn(-10, 10), unitDir, uRange(0, 1), radiusArb, uRange(0, 1))
  .map(([cb, dir, f, rb, g]) => ({
    kind: 'contained',
    a: { center: toV3(add3(toArr(cb), scale3(dir, f * rb))), radius: g * rb },
    b: { center: cb, radius: rb },
  }));

export const ssSceneArb: fc.Arbitrary<SSScene> = scaledMixture(scaleSS, [4, ssRandom], [4, ssNear], [1, ssCoincident], [1, ssContained]);

export interface ExactSSScene extends SSScene {
  expectOverlap: boolean;
  expectDepth?: number;
}

const allPyth: Array<[number[], number]> = [...pythagorean[1], ...pythagorean[2], ...pythagorean[3]];

/** integer centres at integer distance D, signs and axis permutations */
const exactOffset = fc
  .tuple(fc.nat(allPyth.length - 1), fc.tuple(fc.constantFrom(-1, 1), fc.constantFrom(-1, 1), fc.constantFrom(-1, 1)), fc.nat(5))
  .map(([i, sg, perm]): { off: Arr3; D: number } => {
    const [mags, D] = allPyth[i];
    const v = [mags[0] ?? 0, mags[1] ?? 0, mags[2] ?? 0];
    const perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]][perm];
    return { off: [sg[0] * v[perms[0]], sg[1] * v[perms[1]], sg[2] * v[perms[2]]], D };
  });

/** radii summing (exactly, in float64) to nextDown(D); a plain nextDown(ra) + rb may round back to D */
function shrinkRadii(a: OSphere, b: OSphere, D: number): [OSphere, OSphere] {
  const target = nextDown(D);
  const ra2 = target - b.radius;
  if (ra2 >= 0 && ra2 + b.radius === target && target - ra2 === b.radius) return [{ ...a, radius: ra2 }, b];
  return [{ ...a, radius: target }, { ...b, radius: 0 }];
}

export const exactSSArb: fc.Arbitrary<ExactSSScene> = fc
  .tuple(
    fc.tuple(fc.integer({ min: -8, max: 8 }), fc.integer({ min: -8, max: 8 }), fc.integer({ min: -8, max: 8 })),
    exactOffset,
    fc.nat(20),
    fc.constantFrom('touch', 'touch', 'ulpR', 'ulpC', 'bigger', 'smaller'),
    fc.integer({ min: 1, max: 3 }),
    fc.nat(2),
    pow2,
  )
  .map(([cb, { off, D }, split, variant, k, axisPick, s]) => {
    const rb = split % (D + 1);
    const ra = D - rb;
    let a: OSphere = { center: toV3(add3(cb, off)), radius: ra };
    let b: OSphere = { center: toV3(cb), radius: rb };
    let expectOverlap = true;
    let expectDepth: number | undefined = 0;
    switch (variant) {
      case 'ulpR': {
        [a, b] = shrinkRadii(a, b, D);
        expectOverlap = false;
        expectDepth = undefined;
        break;
      }
      case 'ulpC': {
        const nz = [0, 1, 2].filter((j) => off[j] !== 0);
        if (nz.length !== 1) {
          // see exactSBArb: only decidable in float64 for an axis-parallel offset; shrink radii instead
          [a, b] = shrinkRadii(a, b, D);
          expectOverlap = false;
          expectDepth = undefined;
          break;
        }
        const j = nz[axisPick % nz.length];
        const o2: Arr3 = [off[0], off[1], off[2]];
        const cb2: Arr3 = [cb[0], cb[1], cb[2]];
        o2[j] = bumpAway(o2[j], cb2[j], cb2[j] + o2[j]);
        if (cb2[j] + o2[j] - cb2[j] !== o2[j]) throw new Error('generator: inexact ulpC');
        a = { center: toV3(add3(cb2, o2)), radius: ra };
        b = { center: toV3(cb2), radius: rb };
        expectOverlap = false;
        expectDepth = undefined;
        break;
      }
      case 'bigger':
        a = { ...a, radius: ra + k };
        expectDepth = k;
        break;
      case 'smaller':
        {
          const total = Math.max(0, D - k);
          a = { ...a, radius: Math.min(ra, total) };
          b = { ...b, radius: total - Math.min(ra, total) };
        }
        expectOverlap = false;
        expectDepth = undefined;
        break;
    }
    const sc: ExactSSScene = { kind: `exact-${variant}`, a, b, expectOverlap, ...(expectDepth === undefined ? {} : { expectDepth }) };
    const scaled = scaleSS(sc, s, { x: 0, y: 0, z: 0 });
    return { ...scaled, ...(expectDepth === undefined ? {} : { expectDepth: expectDepth * s }) };
  });

const ssCastRandom: fc.Arbitrary<SSCast> = fc.tuple(ssSceneArb, motionArb).map(([sc, m]) => ({ ...sc, kind: `cast-${sc.kind}`, motion: m }));

const ssCastAimed: fc.Arbitrary<SSCast> = fc
  .tuple(vecIn(-10, 10), radiusArb, radiusArb, fc.tuple(uRange(-1, 1), uRange(-1, 1), uRange(-1, 1)), unitDir, uRange(0, 30), fc.oneof(uRange(0.2, 3), fc.constantFrom(0.5, 1, 2)))
  .map(([cb, ra, rb, a, dir, dist, k]) => {
    const R = ra + rb;
    const target = add3(toArr(cb), scale3(a, R));
    const start = add3(target, scale3(dir, dist + R));
    const m = scale3(add3(target, scale3(start, -1)), k);
    return { kind: 'cast-aimed', a: { center: toV3(start), radius: ra }, b: { center: cb, radius: rb }, motion: toV3(m) };
  });

const ssCastHuge: fc.Arbitrary<SSCast> = fc
  .tuple(vecIn(-10, 10), radiusArb, radiusArb, fc.tuple(uRange(-1.2, 1.2), uRange(-1.2, 1.2), uRange(-1.2, 1.2)), unitDir, uRange(5e5, 2e6), uRange(0.3, 2.5))
  .map(([cb, ra, rb, a, dir, far, k]) => {
    const R = ra + rb;
    const size = R || 1;
    const target = add3(toArr(cb), scale3(a, R));
    const start = add3(target, scale3(dir, far * size));
    return { kind: 'cast-huge', a: { center: toV3(start), radius: ra }, b: { center: cb, radius: rb }, motion: toV3(scale3(dir, -far * size * k)) };
  });

const ssCastGraze: fc.Arbitrary<SSCast> = fc
  .tuple(vecIn(-10, 10), radiusArb, radiusArb, unitDir, unitDir, relOffset, uRange(0.5, 40), uRange(0, 1.2))
  .map(([cb, ra, rb, n, rnd, d, len, frac]) => {
    const R = ra + rb;
    let t = add3(rnd, scale3(n, -(rnd[0] * n[0] + rnd[1] * n[1] + rnd[2] * n[2])));
    const tn = norm3(t);
    t = tn < 1e-6 ? (Math.abs(n[0]) < 0.9 ? [n[2], 0, -n[0]] : [0, n[2], -n[1]]) : scale3(t, 1 / tn);
    t = scale3(t, 1 / norm3(t));
    const dist = Math.max(0, R + d * Math.max(R, 1));
    const p = add3(toArr(cb), scale3(n, dist));
    const start = add3(p, scale3(t, -len * frac));
    return { kind: 'cast-graze', a: { center: toV3(start), radius: ra }, b: { center: cb, radius: rb }, motion: toV3(scale3(t, len)) };
  });

export const ssCastArb: fc.Arbitrary<SSCast> = scaledMixture(scaleSS, [3, ssCastRandom], [3, ssCastAimed], [1, ssCastHuge], [3, ssCastGraze]);

export interface ExactSSCast extends SSCast {
  expectHit: boolean;
  expectToi?: number;
}

/** exact axis-parallel approach: first touch after travelling exactly a of a motion of length b */
export const exactSSCastArb: fc.Arbitrary<ExactSSCast> = fc
  .tuple(
    fc.tuple(fc.integer({ min: -8, max: 8 }), fc.integer({ min: -8, max: 8 }), fc.integer({ min: -8, max: 8 })),
    exactOffset,
    fc.nat(20),
    fc.nat(2),
    fc.integer({ min: 0, max: 6 }),
    fc.integer({ min: 0, max: 8 }),
    fc.constantFrom('approach', 'approach', 'away', 'ulpStart'),
    pow2,
  )
  .map(([cb, { off, D }, split, axisPick, a, b, variant, s]) => {
    const rb = split % (D + 1);
    const ra = D - rb;
    const nz = [0, 1, 2].filter((j) => off[j] !== 0);
    const j = nz[axisPick % nz.length];
    const dirOut: Arr3 = [0, 0, 0];
    dirOut[j] = Math.sign(off[j]);
    let sc: ExactSSCast;
    if (variant === 'approach') {
      sc = {
        kind: 'xcast-approach',
        a: { center: toV3(add3(add3(cb, off), scale3(dirOut, a))), radius: ra },
        b: { center: toV3(cb), radius: rb },
        motion: toV3(scale3(dirOut, -b)),
        ...arrival(a, b),
      };
    } else if (variant === 'away') {
      sc = {
        kind: 'xcast-away',
        a: { center: toV3(add3(add3(cb, off), scale3(dirOut, a))), radius: ra },
        b: { center: toV3(cb), radius: rb },
        motion: toV3(scale3(dirOut, b)),
        expectHit: a === 0,
        ...(a === 0 ? { expectToi: 0 } : {}),
      };
    } else if (nz.length === 1) {
      // one ulp further out than the pose reached at the end of the step (axis offsets only)
      const aa = Math.max(a, 1);
      const o2 = add3(off, scale3(dirOut, aa));
      const cb2: Arr3 = [cb[0], cb[1], cb[2]];
      o2[j] = bumpAway(o2[j], cb2[j], cb2[j] + o2[j], cb2[j] + off[j]);
      if (cb2[j] + o2[j] - cb2[j] !== o2[j]) throw new Error('generator: inexact ulpStart');
      sc = {
        kind: 'xcast-ulpStart',
        a: { center: toV3(add3(cb2, o2)), radius: ra },
        b: { center: toV3(cb2), radius: rb },
        motion: toV3(scale3(dirOut, -aa)),
        expectHit: false,
      };
    } else {
      // radii one ulp short of touching at the end of the step
      const [a2, b2] = shrinkRadii({ center: { x: 0, y: 0, z: 0 }, radius: ra }, { center: { x: 0, y: 0, z: 0 }, radius: rb }, D);
      const aa = Math.max(a, 1);
      sc = {
        kind: 'xcast-ulpR',
        a: { center: toV3(add3(add3(cb, off), scale3(dirOut, aa))), radius: a2.radius },
        b: { center: toV3(cb), radius: b2.radius },
        motion: toV3(scale3(dirOut, -aa)),
        expectHit: false,
      };
    }
    const scaled = scaleSS(sc, s, { x: 0, y: 0, z: 0 });
    return { ...sc, ...scaled };
  });
