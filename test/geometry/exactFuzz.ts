/**
 * The exact-oracle fuzz of the geometry queries: scenes (grid scenes with exact decisions, and the
 * general scenes of ./arbitraries.ts within the tolerance band) at one magnitude scale, every query
 * and its mirror checked by ./exactChecks.ts. Counts wrong answers instead of stopping at the first,
 * so that a run can report them per scale; the property test asserts that there are none.
 *
 * Scales: 'unit' leaves scenes as generated; '2^k' multiplies grid scenes by 2^k (exact) and maps a
 * general scene's largest magnitude to [2^k, 2^(k+1)); 'subnormal' does the same with k drawn from
 * [−1066, −1038] for grid scenes (they stay exact: the grid step stays at or above 2^−1072) and
 * [−1070, −1030] for general ones (the inputs are rounded to the subnormal grid, a different but
 * valid scene).
 */
import fc from 'fast-check';
import { type Sweep, T0, dy, exponentOf } from '../oracle/exact.js';
import type { OBoxShape, OSphere, V3 } from '../oracle/oracle.js';
import { sbCastArb, sbSceneArb, ssCastArb, ssSceneArb } from './arbitraries.js';
import {
  type Failure,
  type Second,
  type Tol,
  boxValues,
  checkCast,
  checkContactOutputs,
  checkOverlapDecision,
  sbSecond,
  sphereBoxSweep,
  sphereSphereSweep,
  sphereValues,
  ssSecond,
  toleranceFor,
  vecValues,
} from './exactChecks.js';
import { gridSBCastArb, gridSBSceneArb, gridSSCastArb, gridSSSceneArb } from './gridArbitraries.js';

type Vec = { x: number; y: number; z: number };
type Sphere = { center: Vec; radius: number };
type Box = { center: Vec; halfExtents: Vec; rotation?: { x: number; y: number; z: number; w: number } };
type Contact = { normal: Vec; depth: number; point: Vec };
type Cast = { toi: number; normal: Vec; point: Vec };

/** The queries under test (the public geometry API, or another build of it). */
export interface GeometryImpl {
  overlapSphereBox(sphere: Sphere, box: Box): boolean;
  contactSphereBox(sphere: Sphere, box: Box, out: Contact): boolean;
  castSphereBox(sphere: Sphere, motion: Vec, box: Box, out: Cast): boolean;
  overlapBoxSphere(box: Box, sphere: Sphere): boolean;
  contactBoxSphere(box: Box, sphere: Sphere, out: Contact): boolean;
  castBoxSphere(box: Box, motion: Vec, sphere: Sphere, out: Cast): boolean;
  overlapSphereSphere(a: Sphere, b: Sphere): boolean;
  contactSphereSphere(a: Sphere, b: Sphere, out: Contact): boolean;
  castSphereSphere(a: Sphere, motion: Vec, b: Sphere, out: Cast): boolean;
}

export type Suite = 'sphereBox' | 'sphereBoxCast' | 'sphereSphere' | 'sphereSphereCast';
export const SUITES: Suite[] = ['sphereBox', 'sphereBoxCast', 'sphereSphere', 'sphereSphereCast'];
export const SCALES = ['unit', '2^200', '2^-200', '2^1000', '2^-1000', 'subnormal'] as const;
export type ScaleName = (typeof SCALES)[number];

export interface FuzzResult {
  cases: number;
  /** wrong answers by query and failure kind, e.g. "castSphereSphere/decision" */
  wrong: Record<string, number>;
  /** the first few failures with their scenes */
  examples: string[];
}

interface AnyScene {
  kind: string;
  sphere?: OSphere;
  box?: OBoxShape;
  a?: OSphere;
  b?: OSphere;
  motion?: V3;
}

const mapV = (v: V3, f: (x: number) => number): V3 => ({ x: f(v.x), y: f(v.y), z: f(v.z) });
const mapSphere = (s: OSphere, f: (x: number) => number): OSphere => ({ center: mapV(s.center, f), radius: f(s.radius) });

/** The scene with every length (not the rotation) mapped by f. */
function mapScene<T extends AnyScene>(sc: T, f: (x: number) => number): T {
  const out: AnyScene = { ...sc };
  if (sc.sphere) out.sphere = mapSphere(sc.sphere, f);
  if (sc.a) out.a = mapSphere(sc.a, f);
  if (sc.b) out.b = mapSphere(sc.b, f);
  if (sc.motion) out.motion = mapV(sc.motion, f);
  if (sc.box) {
    const { center, halfExtents, rotation } = sc.box;
    out.box = rotation === undefined ? { center: mapV(center, f), halfExtents: mapV(halfExtents, f) } : { center: mapV(center, f), halfExtents: mapV(halfExtents, f), rotation };
  }
  return out as T;
}

function sceneValues(sc: AnyScene): number[] {
  const v: number[] = [];
  if (sc.sphere) v.push(...sphereValues(sc.sphere));
  if (sc.a) v.push(...sphereValues(sc.a));
  if (sc.b) v.push(...sphereValues(sc.b));
  if (sc.box) v.push(...boxValues(sc.box));
  if (sc.motion) v.push(...vecValues(sc.motion));
  return v;
}

/** x·2^k, exact unless the result is subnormal (then one rounding) */
function timesPow2(x: number, k: number): number {
  let y = x;
  let e = k;
  while (e > 1000) {
    y *= 2 ** 1000;
    e -= 1000;
  }
  while (e < -1000) {
    y *= 2 ** -1000;
    e += 1000;
  }
  // the last factor carries all rounding: scale up first, then down
  return y * 2 ** e;
}

/** Maps a scene to a scale: grid scenes by 2^k, general ones with their largest magnitude to 2^k. */
function toScale<T extends AnyScene>(sc: T, scale: ScaleName, grid: boolean, pick: number): T {
  if (scale === 'unit') return sc;
  let k: number;
  if (scale === 'subnormal') k = grid ? -1066 + (pick % 29) : -1070 + (pick % 41);
  else k = Number(scale.slice(2));
  if (grid) return mapScene(sc, (x) => timesPow2(x, k));
  let m = 0;
  for (const v of sceneValues(sc)) m = Math.max(m, Math.abs(v));
  if (m === 0) return sc;
  const e = exponentOf(dy(m));
  // normalise to [1, 2) exactly first, then move to 2^k (one rounding at most, when subnormal)
  return mapScene(sc, (x) => timesPow2(timesPow2(x, -e), k));
}

const newContact = (): Contact => ({ normal: { x: NaN, y: NaN, z: NaN }, depth: NaN, point: { x: NaN, y: NaN, z: NaN } });
const newCast = (): Cast => ({ toi: NaN, normal: { x: NaN, y: NaN, z: NaN }, point: { x: NaN, y: NaN, z: NaN } });
const same3 = (a: Vec, b: Vec): boolean => a.x === b.x && a.y === b.y && a.z === b.z;
const negated = (a: Vec, b: Vec): boolean => a.x === -b.x && a.y === -b.y && a.z === -b.z;
const mirror = (message: string): Failure => ({ kind: 'mirror', message });

type Check = (impl: GeometryImpl, sc: AnyScene, exact: boolean) => Array<[string, Failure | undefined]>;

/** The second shape of a query as the contact checks see it, and the offset of the reported point from its core. */
const secondOf = (shape: Sphere | Box): [Second, number] => ('radius' in shape ? [ssSecond(shape), shape.radius] : [sbSecond(shape), 0]);
const shapeValues = (shape: Sphere | Box): number[] => ('radius' in shape ? sphereValues(shape) : boxValues(shape));

/**
 * overlap<pair> and contact<pair> on the shapes (first, second): the decision against the exact
 * sweep, the two queries' agreement and the contact's outputs; returns the answers too.
 */
function checkStatic(impl: GeometryImpl, pair: 'SphereBox' | 'SphereSphere', shapes: [Sphere, Sphere | Box], sweep: Sweep, exact: boolean) {
  const tol = toleranceFor([...shapeValues(shapes[0]), ...shapeValues(shapes[1])], exact);
  const [second, offset] = secondOf(shapes[1]);
  const overlap = pair === 'SphereBox' ? impl.overlapSphereBox(shapes[0], shapes[1] as Box) : impl.overlapSphereSphere(shapes[0], shapes[1] as Sphere);
  const out = newContact();
  const hit = pair === 'SphereBox' ? impl.contactSphereBox(shapes[0], shapes[1] as Box, out) : impl.contactSphereSphere(shapes[0], shapes[1] as Sphere, out);
  const contact = hit !== overlap ? mirror(`returned ${hit}, overlap${pair} ${overlap}`) : hit ? checkContactOutputs(sweep, T0, out, second, offset, tol, exact) : undefined;
  const checks: Array<[string, Failure | undefined]> = [[`overlap${pair}`, checkOverlapDecision(sweep, overlap, tol)], [`contact${pair}`, contact]];
  return { checks, overlap, hit, out };
}

/**
 * A cast against the exact sweep, and its consistency with the overlap test at the start: touching
 * there gives toi 0. (The converse, toi 0 only when touching at the start, is exact on grid scenes,
 * where checkCast enforces it; elsewhere an entry within rounding of the start may be reported at
 * toi 0, inside the tolerance band.)
 */
function checkCastCase(overlapName: string, sw: Sweep, tol: Tol, hit: boolean, out: Cast, start: boolean, second: Second, offset: number): Failure | undefined {
  const f = checkCast(sw, hit, out, second, offset, tol);
  if (f === undefined && start && !(hit && out.toi === 0)) return mirror(`${overlapName} at the start ${start}, cast hit ${hit} at toi ${out.toi}`);
  return f;
}

const checkSphereBox: Check = (impl, sc, exact) => {
  const { sphere, box } = sc as Required<AnyScene>;
  const { checks, overlap, hit, out } = checkStatic(impl, 'SphereBox', [sphere, box], sphereBoxSweep(sphere, box), exact);
  const mirrorOut = newContact();
  const mirrorHit = impl.contactBoxSphere(box, sphere, mirrorOut);
  const mirrored = mirrorHit === hit && (!hit || (mirrorOut.depth === out.depth && same3(mirrorOut.point, out.point) && negated(mirrorOut.normal, out.normal)));
  return [
    ...checks,
    ['overlapBoxSphere', impl.overlapBoxSphere(box, sphere) !== overlap ? mirror('differs from overlapSphereBox') : undefined],
    ['contactBoxSphere', mirrored ? undefined : mirror(`${JSON.stringify(mirrorOut)} vs contactSphereBox ${JSON.stringify(out)}`)],
  ];
};

const checkSphereBoxCast: Check = (impl, sc, exact) => {
  const { sphere, box, motion } = sc as Required<AnyScene>;
  const tol = toleranceFor([...sphereValues(sphere), ...boxValues(box), ...vecValues(motion)], exact);
  const out = newCast();
  const hit = impl.castSphereBox(sphere, motion, box, out);
  const f = checkCastCase('overlapSphereBox', sphereBoxSweep(sphere, box, motion), tol, hit, out, impl.overlapSphereBox(sphere, box), sbSecond(box), 0);
  // the mirror: the box moves by −motion against the sphere at rest
  const back = { x: -motion.x, y: -motion.y, z: -motion.z };
  const o2 = newCast();
  const h2 = impl.castBoxSphere(box, back, sphere, o2);
  const shifted = { x: out.point.x + out.toi * back.x, y: out.point.y + out.toi * back.y, z: out.point.z + out.toi * back.z };
  const mirrored = h2 === hit && (!hit || (o2.toi === out.toi && negated(o2.normal, out.normal) && same3(o2.point, shifted)));
  return [
    ['castSphereBox', f],
    ['castBoxSphere', mirrored ? undefined : mirror(`${JSON.stringify(o2)} vs castSphereBox ${JSON.stringify(out)}`)],
  ];
};

const checkSphereSphere: Check = (impl, sc, exact) => {
  const { a, b } = sc as Required<AnyScene>;
  const { checks, overlap } = checkStatic(impl, 'SphereSphere', [a, b], sphereSphereSweep(a, b), exact);
  const sym = impl.overlapSphereSphere(b, a);
  if (checks[0][1] === undefined && sym !== overlap) checks[0][1] = mirror(`overlapSphereSphere(b, a) ${sym} != overlapSphereSphere(a, b) ${overlap}`);
  return checks;
};

const checkSphereSphereCast: Check = (impl, sc, exact) => {
  const { a, b, motion } = sc as Required<AnyScene>;
  const tol = toleranceFor([...sphereValues(a), ...sphereValues(b), ...vecValues(motion)], exact);
  const out = newCast();
  const hit = impl.castSphereSphere(a, motion, b, out);
  return [['castSphereSphere', checkCastCase('overlapSphereSphere', sphereSphereSweep(a, b, motion), tol, hit, out, impl.overlapSphereSphere(a, b), ssSecond(b), b.radius)]];
};

const SUITE_DEFS: Record<Suite, { grid: fc.Arbitrary<AnyScene>; general: fc.Arbitrary<AnyScene>; check: Check }> = {
  sphereBox: { grid: gridSBSceneArb, general: sbSceneArb, check: checkSphereBox },
  sphereBoxCast: { grid: gridSBCastArb, general: sbCastArb, check: checkSphereBoxCast },
  sphereSphere: { grid: gridSSSceneArb, general: ssSceneArb, check: checkSphereSphere },
  sphereSphereCast: { grid: gridSSCastArb, general: ssCastArb, check: checkSphereSphereCast },
};

export interface FuzzOptions {
  suite: Suite;
  scale: ScaleName;
  /** grid scenes (exact decisions) or general ones (tolerance band) */
  grid: boolean;
  runs: number;
  seed: number;
  /** how many failures to keep as examples (default 5) */
  keep?: number;
}

export function runExactFuzz(impl: GeometryImpl, o: FuzzOptions): FuzzResult {
  const def = SUITE_DEFS[o.suite];
  const arb = fc.tuple(o.grid ? def.grid : def.general, fc.nat(1 << 20));
  const scenes = fc.sample(arb, { numRuns: o.runs, seed: o.seed });
  const result: FuzzResult = { cases: 0, wrong: {}, examples: [] };
  for (const [raw, pick] of scenes) {
    const sc = toScale(raw, o.scale, o.grid, pick);
    result.cases++;
    let outcome: Array<[string, Failure | undefined]>;
    try {
      outcome = def.check(impl, sc, o.grid);
    } catch (err) {
      outcome = [[o.suite, { kind: 'output', message: `threw ${String(err)}` }]];
    }
    for (const [query, f] of outcome) {
      if (f === undefined) continue;
      const key = `${query}/${f.kind}`;
      result.wrong[key] = (result.wrong[key] ?? 0) + 1;
      if (result.examples.length < (o.keep ?? 5)) result.examples.push(`${key}: ${f.message}\n  scene: ${JSON.stringify(sc)}`);
    }
  }
  return result;
}
