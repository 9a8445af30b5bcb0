/**
 * Differential test: sphere/box geometry (src/geometry, via the public barrel) against
 * Rapier 3D 0.21.0 (@dimforge/rapier3d-compat: parry3d in float32, compiled to WASM).
 * Oracle helpers: test/oracle/rapier.ts.
 *
 * CASES. fast-check arbitraries sampled with a fixed seed (`fc.sample`), so every run sees
 * the same 50,000 cases: 20k contactSphereBox, 10k castSphereBox, 10k contactSphereSphere,
 * 10k castSphereSphere. Scene scale log-uniform in [0.05, 50]; boxes axis-aligned (no
 * `rotation`), identity, right-angle or uniformly random rotations; 3 boxes in 16 have
 * one zero half-extent and 1 sphere in 32 has radius 0. fast-check's default bias puts
 * about a fifth of the drawn numbers within 1e-3 of their range ends (centres on faces,
 * edges and corners, smallest boxes and scenes), which we keep on purpose. Every input
 * is rounded to float32 first, so both libraries see bit-identical numbers. Failures are
 * collected with their exact inputs, not thrown at the first one, so the worst
 * disagreement per quantity (printed by afterAll, with its case) always covers every case.
 *
 * TOLERANCES. S = the largest |coordinate|, half-extent, radius or motion component of a
 * case. Rapier's contact query (ball vs cuboid, ball vs ball) projects the centre onto
 * the shape and is accurate to float32 rounding: we see ≤ 1.2e-6·S in depth/point,
 * ≤ 1e-10 in 1 - dot of normals, and assert 1e-5·S (depth, point, cast residual) and 1e-4 (1 - dot).
 * |normal| must be 1 within 1e-6: the library does not renormalise quaternions, and a
 * float32-rounded quaternion has |q| - 1 ~ 1e-7.
 *
 * CONTACT. Rapier `cuboid.contactShape(box, ball)`: distance < 0 is penetration, so our
 * depth = -distance; normal1 is the box's outward normal (= from the box toward the
 * sphere, our convention); point1 is the witness on the box surface (= our point, the
 * closest point on the second shape's surface). Hit/miss must agree except where
 * |distance| ≤ BAND·S (touching in float32). Normals are compared only where defined:
 * the centre at least GATE·S from the surface and, with the centre inside the box, the
 * nearest face unique by GATE·S (ties may be broken differently); the point is compared
 * outside always and inside with a unique nearest face.
 *
 * CAST. The ground truth is Rapier's contact query along the path: d(t) = signed
 * distance with the sphere at centre + t·motion, which is convex in t (a point moving on
 * a line against a convex set). d(0) < -BAND·S must give toi = 0. From a separated
 * start, a hit must have d(toi) = 0 (so, by convexity, toi is the FIRST contact) and the
 * normal and point of Rapier's contact at that pose; a miss must have min d over [0, 1]
 * (golden-section search) ≥ -BAND·S. Rapier's own `castShape` (vel = motion, maxToi 1,
 * so time_of_impact is our fraction; witnesses converted from shape-local to world) is
 * compared too, but it is NOT float32-accurate for ball vs cuboid:
 *   - its ball-cuboid cast is iterative (parry's GJK ray cast on the Minkowski sum, as far
 *     as we can tell from parry's source), with stopping tolerances that are partly
 *     relative (sqrt(10·ε_f32) ≈ 1.1e-3) and partly absolute.
 *     Measured against its own contact query, its impact pose is off by up to ~6e-3
 *     units in small scenes (about 6e-3·max(1, S) overall). As a toi that is
 *     Δtoi ≈ δ / (|motion|·cos(approach)): up to 0.35 for slow or grazing motions in
 *     small scenes. So |Δtoi| ≤ 1e-2 is asserted only where
 *     |motion|·cos ≥ 0.5·max(1, S) ("well-conditioned"; worst seen 6.3e-3), and
 *     everywhere in distance form, |Δtoi|·|motion|·cos / max(1, S) ≤ 1e-2.
 *   - its normal is the last GJK search direction, not the exact contact normal: on a
 *     face hit by a small sphere it can be ~30° off (1 - dot 0.12). Asserted (1 - dot ≤
 *     3e-2, worst seen 6.7e-3) only when well-conditioned and r ≥ 0.1·max(1, S); its
 *     box witness is asserted within 3e-2·S when well-conditioned (worst seen 1.0e-2).
 *   - it occasionally misses a contact that its own contact query confirms (2 cases) or
 *     reports one whose path stays > BAND·S away (10 cases), and when the start already
 *     overlaps it returns null for every zero motion (348 cases) and for a few non-zero
 *     ones (18). Those cases are counted and printed, and judged by the contact-query
 *     checks above (an overlapping start must give toi 0, whatever castShape says).
 *   Ball-ball casts are closed-form in Rapier and agree to ~1e-6 (toi) everywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { castSphereBox, castSphereSphere, contactSphereBox, contactSphereSphere } from '../../src/index.js';
import {
  initRapier,
  rapierCastSphereBox,
  rapierCastSphereSphere,
  rapierContactSphereBox,
  rapierContactSphereSphere,
  rapierVersion,
  rotate,
  type CastOptions,
  type OracleBox,
  type OracleCast,
  type OracleContact,
  type OracleSphere,
  type Q4,
  type V3,
} from '../oracle/rapier.js';
import { convexMin, type GoldenSectionOptions } from '../oracle/oracle.js';
import { newCast, newContact, vec3 as v } from '../support/shapes.js';
import { report } from '../support/report.js';

// ---------------------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------------------

const SEED = 20_240_611;
const N_CONTACT_SPHERE_BOX = 20_000;
const N_CAST_SPHERE_BOX = 10_000;
const N_CONTACT_SPHERE_SPHERE = 10_000;
const N_CAST_SPHERE_SPHERE = 10_000;

/** |separation| ≤ BAND·S counts as touching in float32: hit/miss not compared. */
const BAND = 1e-5;
/** Normals need the centre ≥ GATE·S from the surface (and a unique face inside). */
const GATE = 1e-3;
/**
 * Cast comparisons against Rapier's castShape assert toi/witness bounds only where the toi is
 * well conditioned: |motion|·cos(approach) >= WELL_CONDITIONED·max(1, S).
 */
const WELL_CONDITIONED = 0.5;

/** Asserted bounds. Relative quantities are divided by the scene scale S. */
const BOUND = {
  depthRel: 1e-5,
  pointRel: 1e-5,
  normal: 1e-4, // 1 - dot(ours, rapier)
  residualRel: 1e-5, // |Rapier signed distance at our toi| / S
  toi: 1e-2, // |Δtoi| against Rapier castShape (fraction of the motion)
  castDistance: 1e-2, // |Δtoi|·|motion|·cos(approach) / max(1, S) against castShape
  castWitnessNormal: 3e-2, // 1 - dot vs Rapier castShape normal (well-conditioned, r >= 0.1·max(1, S))
  castWitnessPointRel: 3e-2, // |Δpoint| / S vs Rapier castShape box witness (well-conditioned)
  unit: 1e-6, // | |normal| - 1 | (float32-rounded quaternions are unit only to ~1e-7; not renormalised)
};

// ---------------------------------------------------------------------------------------
// Small vector helpers (f64)
// ---------------------------------------------------------------------------------------

const sub = (a: V3, b: V3): V3 => v(a.x - b.x, a.y - b.y, a.z - b.z);
const add = (a: V3, b: V3): V3 => v(a.x + b.x, a.y + b.y, a.z + b.z);
const mul = (a: V3, s: number): V3 => v(a.x * s, a.y * s, a.z * s);
const dot = (a: V3, b: V3): number => a.x * b.x + a.y * b.y + a.z * b.z;
const len = (a: V3): number => Math.hypot(a.x, a.y, a.z);
const dist = (a: V3, b: V3): number => len(sub(a, b));
const maxAbs = (a: V3): number => Math.max(Math.abs(a.x), Math.abs(a.y), Math.abs(a.z));
const f32 = Math.fround;
const f32v = (a: V3): V3 => v(f32(a.x), f32(a.y), f32(a.z));
const conj = (q: Q4 | undefined): Q4 | undefined => (q ? { x: -q.x, y: -q.y, z: -q.z, w: q.w } : undefined);
/** 1 - cos(angle) between a and b (Infinity for a zero or non-finite vector). */
const angleErr = (a: V3, b: V3): number => {
  const c = dot(a, b) / (len(a) * len(b));
  return Number.isFinite(c) ? 1 - c : Infinity;
};

// ---------------------------------------------------------------------------------------
// Worst-disagreement bookkeeping
// ---------------------------------------------------------------------------------------

interface Stat {
  bound: number;
  n: number;
  worst: number;
  at?: unknown;
}
const stats = new Map<string, Stat>();
const counts = new Map<string, number>();
/** Failure examples (at most 3 per quantity) and counts. */
const failures = new Map<string, string[]>();
const failureCounts = new Map<string, number>();

function count(key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** Deep snapshot (the result objects are reused between cases). */
const snap = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

function fail(key: string, msg: string, input: () => unknown): void {
  failureCounts.set(key, (failureCounts.get(key) ?? 0) + 1);
  const list = failures.get(key) ?? [];
  if (list.length < 3) list.push(`${key}: ${msg}\n    case ${JSON.stringify(input())}`);
  failures.set(key, list);
}

function record(key: string, value: number, bound: number, input: () => unknown): void {
  let s = stats.get(key);
  if (!s) stats.set(key, (s = { bound, n: 0, worst: 0 }));
  s.n++;
  const worse = s.at === undefined || Number.isNaN(value) || (!Number.isNaN(s.worst) && value > s.worst);
  if (worse) {
    s.worst = value; // a NaN stays the worst
    s.at = snap(input());
  }
  if (!(value <= bound)) fail(key, `${value} > ${bound}`, input);
}

/** Fails with the failure counts and up to 3 example cases per quantity of one function. */
function assertStats(prefix: string): void {
  const keys = [...failureCounts.keys()].filter((k) => k.startsWith(`${prefix} `));
  const summary = keys.map((k) => `${k}: ${failureCounts.get(k)} case(s)`);
  const examples = keys.flatMap((k) => failures.get(k) ?? []);
  expect(summary, examples.join('\n')).toEqual([]);
  for (const [k, s] of stats) {
    if (k.startsWith(`${prefix} `)) expect(s.worst, k).toBeLessThanOrEqual(s.bound);
  }
}

const fmt = (x: number) => (x === 0 ? '0' : x.toExponential(2));

// ---------------------------------------------------------------------------------------
// Case generators (fast-check arbitraries, sampled with a fixed seed)
// ---------------------------------------------------------------------------------------

const U24 = 1 << 24;
/**
 * Uniform on [a, b] (fc.double spreads over float exponents instead), apart from
 * fast-check's generation bias toward the ends of the range (see header).
 */
const uni = (a: number, b: number) => fc.integer({ min: 0, max: U24 }).map((i) => a + ((b - a) * i) / U24);
const vecArb = (a: number, b: number) => fc.tuple(uni(a, b), uni(a, b), uni(a, b)).map(([x, y, z]) => v(x, y, z));
/** Uniform random unit vector. */
const dirArb = fc.tuple(uni(-1, 1), uni(0, 2 * Math.PI)).map(([z, phi]) => {
  const s = Math.sqrt(1 - z * z);
  return v(s * Math.cos(phi), s * Math.sin(phi), z);
});
/** Log-uniform scene scale in [0.05, 50]. */
const scaleArb = uni(Math.log(0.05), Math.log(50)).map(Math.exp);

const H = Math.SQRT1_2;
const RIGHT_ANGLE_QUATS: Q4[] = [
  { x: 0, y: 0, z: H, w: H },
  { x: H, y: 0, z: 0, w: H },
  { x: 0, y: H, z: 0, w: H },
  { x: 0, y: 0, z: 1, w: 0 },
  { x: 0.5, y: 0.5, z: 0.5, w: 0.5 },
];
const f32q = (q: Q4): Q4 => ({ x: f32(q.x), y: f32(q.y), z: f32(q.z), w: f32(q.w) });
/** Uniform random rotation (Shoemake). */
const randomQuatArb = fc.tuple(uni(0, 1), uni(0, 2 * Math.PI), uni(0, 2 * Math.PI)).map(([u, a, b]) => {
  const s1 = Math.sqrt(1 - u);
  const s2 = Math.sqrt(u);
  return { x: s1 * Math.sin(a), y: s1 * Math.cos(a), z: s2 * Math.sin(b), w: s2 * Math.cos(b) };
});
/** undefined = axis-aligned box (no rotation field). */
const rotationArb: fc.Arbitrary<Q4 | undefined> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constant({ x: 0, y: 0, z: 0, w: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom(...RIGHT_ANGLE_QUATS) },
  { weight: 6, arbitrary: randomQuatArb },
);

function makeBox(c: V3, he: V3, rot: Q4 | undefined): OracleBox {
  const box: OracleBox = { center: f32v(c), halfExtents: f32v(he) };
  if (rot) box.rotation = f32q(rot);
  return box;
}
const toWorld = (box: OracleBox, local: V3): V3 => add(box.center, rotate(box.rotation, local));
const toLocal = (box: OracleBox, p: V3): V3 => rotate(conj(box.rotation), sub(p, box.center));

/** Half extents in [0.02, 2]·s; one of them zero (a rectangle) in 3 cases out of 16. */
const halfExtentsArb = fc
  .tuple(vecArb(0.02, 2), fc.constantFrom(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 2))
  .map(([he, flat]) => (flat === 0 ? v(0, he.y, he.z) : flat === 1 ? v(he.x, 0, he.z) : flat === 2 ? v(he.x, he.y, 0) : he));
/** Radius factor in [0.02, 2], or 0 (a point) in 1 case out of 32. */
const radiusArb = fc.oneof({ weight: 31, arbitrary: uni(0.02, 2) }, { weight: 1, arbitrary: fc.constant(0) });

const boxArb = fc
  .record({ s: scaleArb, c: vecArb(-4, 4), he: halfExtentsArb, rot: rotationArb })
  .map(({ s, c, he, rot }) => ({ s, box: makeBox(mul(c, s), mul(he, s), rot) }));

interface SphereBoxCase {
  sphere: OracleSphere;
  box: OracleBox;
}
const contactSphereBoxArb: fc.Arbitrary<SphereBoxCase> = fc
  .record({
    b: boxArb,
    r: radiusArb,
    region: fc.constantFrom('inside', 'around', 'around', 'around'),
    local: vecArb(-1, 1),
  })
  .map(({ b: { s, box }, r, region, local }) => {
    const radius = f32(r * s);
    const he = box.halfExtents;
    const grow = region === 'inside' ? 0 : 1.3 * radius;
    const l = v(local.x * (he.x + grow), local.y * (he.y + grow), local.z * (he.z + grow));
    return { sphere: { center: f32v(toWorld(box, l)), radius }, box };
  });

interface SphereBoxCastCase extends SphereBoxCase {
  motion: V3;
}
const castSphereBoxArb: fc.Arbitrary<SphereBoxCastCase> = fc
  .record({
    b: boxArb,
    r: radiusArb,
    dir: dirArb,
    startDist: uni(0, 3),
    aim: fc.constantFrom('volume', 'corner', 'edge', 'random'),
    aimLocal: vecArb(-1, 1),
    signs: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
    reach: uni(0.3, 2.5),
    zeroAxes: fc.constantFrom(0, 0, 0, 0, 0, 0, 1, 2, 3),
    zeroAxis: fc.integer({ min: 0, max: 2 }),
  })
  .map(({ b: { s, box }, r, dir, startDist, aim, aimLocal, signs, reach, zeroAxes, zeroAxis }) => {
    const radius = f32(r * s);
    const he = box.halfExtents;
    const size = len(he) + radius;
    const start = toWorld(box, mul(dir, startDist * size));
    const sx = signs[0] ? 1 : -1;
    const sy = signs[1] ? 1 : -1;
    const sz = signs[2] ? 1 : -1;
    let target: V3;
    if (aim === 'volume') target = v(aimLocal.x * he.x * 1.5, aimLocal.y * he.y * 1.5, aimLocal.z * he.z * 1.5);
    else if (aim === 'corner') target = add(v(sx * he.x, sy * he.y, sz * he.z), mul(aimLocal, radius));
    else if (aim === 'edge') {
      const t = v(sx * he.x, sy * he.y, sz * he.z);
      const k = zeroAxis;
      const edge = k === 0 ? v(aimLocal.x * he.x, t.y, t.z) : k === 1 ? v(t.x, aimLocal.y * he.y, t.z) : v(t.x, t.y, aimLocal.z * he.z);
      target = add(edge, mul(v(aimLocal.y, aimLocal.z, aimLocal.x), 0.5 * radius));
    } else target = mul(aimLocal, 2 * size);
    let motion = mul(sub(toWorld(box, target), start), reach);
    // Axis-parallel motions (exercise zero direction components / slab divisions).
    if (zeroAxes === 3) motion = v(0, 0, 0);
    else if (zeroAxes === 2) motion = zeroAxis === 0 ? v(motion.x, 0, 0) : zeroAxis === 1 ? v(0, motion.y, 0) : v(0, 0, motion.z);
    else if (zeroAxes === 1) motion = zeroAxis === 0 ? v(0, motion.y, motion.z) : zeroAxis === 1 ? v(motion.x, 0, motion.z) : v(motion.x, motion.y, 0);
    return { sphere: { center: f32v(start), radius }, box, motion: f32v(motion) };
  });

interface SphereSphereCase {
  a: OracleSphere;
  b: OracleSphere;
}
const contactSphereSphereArb: fc.Arbitrary<SphereSphereCase> = fc
  .record({ s: scaleArb, cb: vecArb(-4, 4), ra: radiusArb, rb: radiusArb, dir: dirArb, k: uni(0, 1.3) })
  .map(({ s, cb, ra, rb, dir, k }) => {
    const A = f32(ra * s);
    const B = f32(rb * s);
    const centerB = f32v(mul(cb, s));
    return { a: { center: f32v(add(centerB, mul(dir, k * (A + B)))), radius: A }, b: { center: centerB, radius: B } };
  });

interface SphereSphereCastCase extends SphereSphereCase {
  motion: V3;
}
const castSphereSphereArb: fc.Arbitrary<SphereSphereCastCase> = fc
  .record({
    s: scaleArb,
    cb: vecArb(-4, 4),
    ra: radiusArb,
    rb: radiusArb,
    dir: dirArb,
    startDist: uni(0, 4),
    aimLocal: vecArb(-1, 1),
    reach: uni(0.3, 2.5),
    zeroAxes: fc.constantFrom(0, 0, 0, 0, 0, 0, 0, 1, 3),
    zeroAxis: fc.integer({ min: 0, max: 2 }),
  })
  .map(({ s, cb, ra, rb, dir, startDist, aimLocal, reach, zeroAxes, zeroAxis }) => {
    const A = f32(ra * s);
    const B = f32(rb * s);
    const centerB = f32v(mul(cb, s));
    const start = add(centerB, mul(dir, startDist * (A + B)));
    const target = add(centerB, mul(aimLocal, 1.5 * (A + B)));
    let motion = mul(sub(target, start), reach);
    if (zeroAxes === 3) motion = v(0, 0, 0);
    else if (zeroAxes === 1) motion = zeroAxis === 0 ? v(0, motion.y, motion.z) : zeroAxis === 1 ? v(motion.x, 0, motion.z) : v(motion.x, motion.y, 0);
    return { a: { center: f32v(start), radius: A }, b: { center: centerB, radius: B }, motion: f32v(motion) };
  });

const sceneScale = (...xs: (V3 | number)[]): number =>
  Math.max(...xs.map((x) => (typeof x === 'number' ? Math.abs(x) : maxAbs(x))));

// ---------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------

beforeAll(async () => {
  await initRapier();
});

afterAll(() => {
  const lines = [`Rapier ${safeVersion()} differential test, seed ${SEED}. Worst disagreement per quantity:`];
  const keys = [...stats.keys()].sort();
  const w = Math.max(...keys.map((k) => k.length));
  for (const k of keys) {
    const s = stats.get(k)!;
    lines.push(`  ${k.padEnd(w)}  n=${String(s.n).padStart(6)}  worst=${fmt(s.worst).padStart(9)}  ${Number.isFinite(s.bound) ? `bound=${fmt(s.bound)}` : 'report only'}  at ${JSON.stringify(s.at)}`);
  }
  lines.push('Case counts:');
  for (const k of [...counts.keys()].sort()) lines.push(`  ${k.padEnd(w)}  ${counts.get(k)}`);
  if (failureCounts.size) {
    lines.push('FAILURES:');
    for (const [k, n] of failureCounts) lines.push(`  ${k}: ${n}`);
  }
  report(lines.join('\n'));
});

function safeVersion(): string {
  try {
    return rapierVersion();
  } catch {
    return '?';
  }
}

/** Nearest-face gap of a point inside the box: (second smallest - smallest) face distance. */
function faceMargin(box: OracleBox, p: V3): number {
  const l = toLocal(box, p);
  const h = box.halfExtents;
  const d = [h.x - Math.abs(l.x), h.y - Math.abs(l.y), h.z - Math.abs(l.z)].sort((a, b) => a - b);
  return d[1]! - d[0]!;
}

/**
 * The golden-section search of d(t) over the path, t in [0, 1]: 60 iterations or a bracket of 1e-12,
 * ties to the left, finishing on the last probes.
 */
const PATH_SEARCH: GoldenSectionOptions = { iters: 60, minWidth: 1e-12, tiesLeft: true, finish: 'probes' };

type CastOut = { toi: number; normal: V3; point: V3 };
type ContactOut = { normal: V3; depth: number; point: V3 };
/** Our outputs, reused from case to case (their toi or depth is reset before each query). */
const CAST_OUT: CastOut = newCast();
const CONTACT_OUT: ContactOut = newContact();

interface ContactCheck {
  S: number;
  /** Rapier's contact (huge prediction) for the case */
  rc: OracleContact;
  /** our contact query of the case into `out` */
  ours: (out: ContactOut) => boolean;
  /** suffix of the case-count key */
  tag: string;
  /** suffix of the normal and point keys */
  where: string;
  /** whether the normal, and the point, are defined well enough to compare (asked on a common hit) */
  compareNormal: () => boolean;
  comparePoint: () => boolean;
}

/**
 * Contact checks shared by sphere-box and sphere-sphere, against Rapier's contact query: hit/miss
 * agree unless touching within BAND·S; on a common hit, depth and |normal| always, the normal and
 * the point where the case says they are well defined.
 */
function checkContact(name: string, c: object, k: ContactCheck): void {
  const { S, rc } = k;
  const out = CONTACT_OUT;
  out.depth = Number.NaN;
  const hit = k.ours(out);
  const hitR = rc.distance <= 0;
  const input = () => ({ ...c, ours: hit ? { ...out } : null, rapier: rc });
  count(`${name} cases${k.tag}`);
  if (Math.abs(rc.distance) <= BAND * S) count(`${name} touching (hit not compared)`);
  else if (hit !== hitR) fail(`${name} hit`, `ours ${hit}, rapier distance ${rc.distance}`, input);
  if (!(hit && hitR)) return;
  count(`${name} both hit`);
  record(`${name} depth |Δ|/S`, Math.abs(out.depth + rc.distance) / S, BOUND.depthRel, input);
  record(`${name} | |n|-1 |`, Math.abs(len(out.normal) - 1), BOUND.unit, input);
  if (k.compareNormal()) record(`${name} normal 1-dot${k.where}`, angleErr(out.normal, rc.normal), BOUND.normal, input);
  if (k.comparePoint()) record(`${name} point |Δ|/S${k.where}`, dist(out.point, rc.pointOnSecond) / S, BOUND.pointRel, input);
}

/** Our cast and Rapier's queries of a moving sphere against the fixed second shape of a case. */
interface Against {
  ours: (sphere: OracleSphere, motion: V3, out: CastOut) => boolean;
  /** Rapier's contact query (huge prediction) */
  rapierContact: (sphere: OracleSphere) => OracleContact;
  rapierCast: (sphere: OracleSphere, motion: V3, opts?: CastOptions) => OracleCast | null;
}

/** The {@link Against} of a pair's three functions, with the pair's second shape fixed to `other`. */
function against<B>(
  other: B,
  ours: (sphere: OracleSphere, motion: V3, other: B, out: CastOut) => boolean,
  rapierContact: (sphere: OracleSphere, other: B, prediction: number) => OracleContact | null,
  rapierCast: (sphere: OracleSphere, motion: V3, other: B, opts?: CastOptions) => OracleCast | null,
): Against {
  return {
    ours: (s, m, out) => ours(s, m, other, out),
    rapierContact: (s) => rapierContact(s, other, 1e30)!,
    rapierCast: (s, m, opts) => rapierCast(s, m, other, opts),
  };
}

interface CastCheck {
  S: number;
  sphere: OracleSphere;
  motion: V3;
  /** the kind of case, named in the case-count key */
  tag: string;
  against: Against;
}

/**
 * Cast checks shared by sphere-box and sphere-sphere. Ground truth is Rapier's contact
 * query (a closed-form projection, accurate to float32) evaluated along the path; the
 * signed distance d(t) of a point moving on a line to a convex set is convex in t.
 *   - d(0) < -BAND·S: must hit with toi = 0;
 *   - |d(0)| <= BAND·S: touching at the start, nothing compared;
 *   - ours hits: d(toi) = 0 (residual), normal and point = Rapier's at that pose. With
 *     d(0) > 0 and convexity this proves toi is the FIRST contact;
 *   - ours misses: min over [0, 1] of d(t) (golden section) must be >= -BAND·S.
 * Rapier's own castShape is compared separately (toi, normal, witness, hit/miss),
 * with the bounds documented in the header.
 */
function checkCast(name: string, c: object, k: CastCheck): void {
  const { S, sphere, motion } = k;
  const out = CAST_OUT;
  out.toi = Number.NaN;
  const hit = k.against.ours(sphere, motion, out);
  /** Rapier's contact with the moving sphere at centre + t·motion. */
  const contactAt = (t: number) => k.against.rapierContact({ center: add(sphere.center, mul(motion, t)), radius: sphere.radius });
  const d0 = contactAt(0).distance;
  const rcast = k.against.rapierCast(sphere, motion);
  const input = () => ({ ...c, ours: hit ? { ...out } : null, rapier: rcast, rapierStartDistance: d0 });
  count(`${name} cases (${k.tag})`);
  if (d0 < -BAND * S) {
    count(`${name} start overlapping`);
    if (!rcast) count(`${name} start overlapping, Rapier castShape null (quirk)`);
    if (!hit) fail(`${name} hit`, `ours false, Rapier start distance ${d0}`, input);
    else record(`${name} toi when overlapping at start`, out.toi, 0, input);
    return;
  }
  if (d0 <= BAND * S) {
    count(`${name} touching at start (not compared)`);
    return;
  }
  if (!hit) {
    const m = convexMin((t) => contactAt(t).distance, 0, 1, PATH_SEARCH);
    if (m.v <= BAND * S && m.v >= -BAND * S) count(`${name} grazing miss (hit not compared)`);
    else if (m.v < -BAND * S) fail(`${name} hit`, `ours false, Rapier distance ${m.v} at t=${m.t}`, input);
    else count(`${name} miss from separated start`);
    if (rcast && m.v > BAND * S) {
      count(`${name} Rapier castShape hit, its contact query says miss`);
      record(`${name} [info] Rapier castShape false hit: min d(t)/S`, m.v / S, Infinity, input);
    }
    return;
  }
  count(`${name} hit from separated start`);
  const rc = contactAt(out.toi);
  record(`${name} residual |d(ours toi)|/S`, Math.abs(rc.distance) / S, BOUND.residualRel, input);
  record(`${name} toi in [0, 1]`, out.toi >= 0 && out.toi <= 1 ? 0 : Infinity, 0, input);
  record(`${name} | |n|-1 |`, Math.abs(len(out.normal) - 1), BOUND.unit, input);
  // A zero-radius sphere touches at distance 0, where the normal is undefined on edges and corners.
  if (sphere.radius > GATE * S) {
    record(`${name} normal 1-dot (Rapier contact at our toi)`, angleErr(out.normal, rc.normal), BOUND.normal, input);
  }
  record(`${name} point |Δ|/S (Rapier contact at our toi)`, dist(out.point, rc.pointOnSecond) / S, BOUND.pointRel, input);
  // Against Rapier's own (iterative) shape cast. The toi is conditioned by the approach
  // speed: a distance error δ moves it by δ / (|motion|·cos), cos = -motion·normal/|motion|.
  const approach = Math.max(0, -dot(motion, out.normal) / len(motion));
  const conditioning = (len(motion) * approach) / Math.max(1, S);
  const cls = conditioning >= WELL_CONDITIONED ? 'well-conditioned' : 'ill-conditioned';
  if (!rcast) {
    count(`${name} Rapier castShape null, its contact query confirms our hit`);
    record(`${name} [info] Rapier castShape missed: our toi`, out.toi, Infinity, input);
    return;
  }
  const dt = Math.abs(out.toi - rcast.toi);
  count(`${name} both hit (${cls})`);
  const bound = (b: number) => (cls === 'well-conditioned' ? b : Infinity);
  record(`${name} toi |Δ| vs castShape (${cls})`, dt, bound(BOUND.toi), input);
  record(`${name} toi |Δ|·|m|·cos/max(1,S) vs castShape (all)`, (dt * len(motion) * approach) / Math.max(1, S), BOUND.castDistance, input);
  // Rapier's cast normal is its last GJK search direction; with a small sphere a small distance
  // error turns it by a lot (~δ/r), so it is only asserted for r >= 0.1·max(1, S).
  if (sphere.radius > GATE * S) {
    const big = sphere.radius >= 0.1 * Math.max(1, S);
    const ncls = `${cls}${cls === 'well-conditioned' ? (big ? ', r>=0.1max(1,S)' : ', small r') : ''}`;
    record(`${name} normal 1-dot vs castShape (${ncls})`, angleErr(out.normal, rcast.normal), big ? bound(BOUND.castWitnessNormal) : Infinity, input);
  }
  record(`${name} point |Δ|/S vs castShape (${cls})`, dist(out.point, rcast.pointOnSecond) / S, bound(BOUND.castWitnessPointRel), input);
}

/** A sphere-box contact case. */
function sphereBoxContact({ sphere, box }: SphereBoxCase): ContactCheck {
  const S = sceneScale(sphere.center, box.center, box.halfExtents, sphere.radius);
  const rc = rapierContactSphereBox(sphere, box, 1e30)!;
  const centreDist = rc.distance + sphere.radius; // signed distance centre -> box surface
  const inside = centreDist < 0;
  // Inside, the nearest face must be unique (ties may be broken differently).
  const unique = () => !inside || faceMargin(box, sphere.center) > GATE * S;
  return {
    S,
    rc,
    ours: (out) => contactSphereBox(sphere, box, out),
    tag: ` (${box.rotation ? 'rotated' : 'axis-aligned'}, ${inside ? 'centre inside' : 'centre outside'})`,
    where: ` (${inside ? 'inside' : 'outside'})`,
    compareNormal: () => unique() && Math.abs(centreDist) > GATE * S,
    comparePoint: unique,
  };
}

/** A sphere-sphere contact case; normal and point are defined where the centres are apart. */
function sphereSphereContact({ a, b }: SphereSphereCase): ContactCheck {
  const S = sceneScale(a.center, b.center, a.radius, b.radius);
  const apart = () => dist(a.center, b.center) > GATE * S;
  const ours = (out: ContactOut) => contactSphereSphere(a, b, out);
  return { S, rc: rapierContactSphereSphere(a, b, 1e30)!, ours, tag: '', where: '', compareNormal: apart, comparePoint: apart };
}

/** A sphere-box cast case: the sphere moves, the box stays. */
const sphereBoxCast = ({ sphere, box, motion }: SphereBoxCastCase): CastCheck => ({
  S: sceneScale(sphere.center, add(sphere.center, motion), motion, box.center, box.halfExtents, sphere.radius),
  sphere,
  motion,
  tag: box.rotation ? 'rotated' : 'axis-aligned',
  against: against(box, castSphereBox, rapierContactSphereBox, rapierCastSphereBox),
});

/** A sphere-sphere cast case: a moves, b stays. */
const sphereSphereCast = ({ a, b, motion }: SphereSphereCastCase): CastCheck => ({
  S: sceneScale(a.center, add(a.center, motion), motion, b.center, a.radius, b.radius),
  sphere: a,
  motion,
  tag: 'spheres',
  against: against(b, castSphereSphere, rapierContactSphereSphere, rapierCastSphereSphere),
});

/**
 * The test of `name` on `n` cases of `arb` sampled with `seed`: `check` compares each case, then
 * the bounds recorded under `name` are asserted.
 */
function sampledTest<C>(name: string, arb: fc.Arbitrary<C>, seed: number, n: number, check: (name: string, c: C) => void): void {
  it(`${name}: ${n} random cases`, () => {
    for (const c of fc.sample(arb, { seed, numRuns: n })) check(name, c);
    assertStats(name);
  });
}

describe('geometry vs Rapier (differential)', () => {
  sampledTest('contactSphereBox', contactSphereBoxArb, SEED, N_CONTACT_SPHERE_BOX, (name, c) => checkContact(name, c, sphereBoxContact(c)));
  sampledTest('castSphereBox', castSphereBoxArb, SEED + 1, N_CAST_SPHERE_BOX, (name, c) => checkCast(name, c, sphereBoxCast(c)));
  sampledTest('contactSphereSphere', contactSphereSphereArb, SEED + 2, N_CONTACT_SPHERE_SPHERE, (name, c) => checkContact(name, c, sphereSphereContact(c)));
  sampledTest('castSphereSphere', castSphereSphereArb, SEED + 3, N_CAST_SPHERE_SPHERE, (name, c) => checkCast(name, c, sphereSphereCast(c)));
});
