/**
 * Differential test: contactBoxBox and castBoxBox against Rapier 3D 0.21.0 (@dimforge/rapier3d-compat:
 * parry3d in float32, WASM), helpers in test/oracle/boxBoxRapier.ts. The ground truth for our depths
 * is the exact oracle (test/oracle/boxBox.ts), not Rapier: see DEPTH below.
 *
 * CASES. fast-check arbitraries sampled with a fixed seed: 20,000 contacts and 10,000 casts. Scene
 * scale log-uniform in [0.05, 50]; half extents in [0.02, 2]·scale, one of them zero (a rectangle)
 * in 3 boxes out of 16; rotations absent, identity, right angles or uniformly random. Contacts: a's
 * centre at b's plus a random direction times 0 … 1.3 of the sum of the circumradii. Casts: a starts
 * 0 … 3 sizes away and aims at a point of b (or beside it) with 0.3 … 2.5 of the distance. Every input
 * is rounded to float32, so both libraries see the same numbers (float32 quaternions are unit only to
 * ~1e-7, which neither library corrects). Failures are collected with their inputs, and the worst
 * case of each quantity is kept; GEOM_REPORT=1 prints them with the case counts.
 *
 * TOLERANCES. S = the largest |coordinate|, half extent or motion component of a case. BAND = 1e-5:
 * |Rapier distance| <= BAND·S counts as touching (hit/miss not compared).
 *
 * CONTACT. Hit/miss must agree with Rapier outside the band, or else with the exact oracle (Rapier
 * is then counted as wrong: its distance comes from float32 GJK). Our depth must equal the exact
 * oracle's penetration within 1e-6·S (not 1e-9: the non-unit float32 quaternions make the two
 * computations differ by ~1e-7·S). DEPTH: Rapier's depth is reported, not asserted. Its
 * `contactShape` does not use parry's cuboid–cuboid SAT contact for two cuboids (that branch is
 * commented out in parry's DefaultQueryDispatcher::contact); it goes through the generic support-map
 * contact, GJK and then EPA for a penetration, iterative and in float32. EPA stops on a tolerance
 * and an iteration limit, so its penetration is an approximation of the minimum translation
 * distance: mostly below it (231 of the 8,422 overlapping cases by more than 1e-5·S; worst: two
 * nearly concentric boxes, centres 1e-6 apart, 1.2e-8 instead of 0.696, i.e. 1.76·S), sometimes
 * above it (once by more than 1e-5·S: nearly concentric boxes again, 80.76 instead of 71.09 along
 * an edge axis, 0.11·S). Where the depths agree (within 1e-5·S) and the oracle's axis is unique
 * by 1e-3·S, the normals must agree (1 − dot <= 1e-4). Our point (the middle of the clipped incident
 * face, or of two edges) and Rapier's (an EPA witness) are different choices; their distance is
 * reported only.
 *
 * CAST. Rapier's castShape for two cuboids is parry's support-map shape cast (a GJK ray cast on the
 * Minkowski difference) with float32 tolerances; its time of impact is compared in distance form,
 * |Δtoi|·|motion|·cos(approach) / max(1, S) <= 1e-2 (cos from our normal). Where it disagrees on
 * hit/miss, the exact oracle's minimum signed distance along the path decides (within BAND·S of 0:
 * grazing, not compared); Rapier's false hits and misses are counted. Its normal (the last search
 * direction) is reported only. Our hits are also checked against the exact oracle at our toi
 * (|σ(toi)| <= 1e-6·S).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { castBoxBox, contactBoxBox } from '../../src/index.js';
import { boxBoxGap, polyOf, signedDistance } from '../oracle/boxBox.js';
import { rapierCastBoxBox, rapierContactBoxBox } from '../oracle/boxBoxRapier.js';
import { convexMin } from '../oracle/oracle.js';
import { initRapier, rapierVersion, type OracleBox, type Q4, type V3 } from '../oracle/rapier.js';
import { newCast, newContact, vec3 as v } from '../support/shapes.js';
import { uniqueAxis } from './checksBoxBox.js';

const SEED = 20_240_613;
const N_CONTACT = 20_000;
const N_CAST = 10_000;
const BAND = 1e-5;
const BOUND = {
  depthVsOracleRel: 1e-6,
  normal: 1e-4,
  unit: 1e-6,
  castDistance: 1e-2,
  residualRel: 1e-6,
};

// ---------------------------------------------------------------------------------------
// Bookkeeping: worst value per quantity (with its case), failures, case counts

interface Stat {
  bound: number;
  n: number;
  worst: number;
  at?: unknown;
}
const stats = new Map<string, Stat>();
const counts = new Map<string, number>();
const failures = new Map<string, { n: number; examples: string[] }>();

const count = (key: string): void => {
  counts.set(key, (counts.get(key) ?? 0) + 1);
};
const snap = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

function fail(key: string, msg: string, input: () => unknown): void {
  const f = failures.get(key) ?? { n: 0, examples: [] };
  f.n++;
  if (f.examples.length < 3) f.examples.push(`${key}: ${msg}\n    case ${JSON.stringify(input())}`);
  failures.set(key, f);
}

/** Records `value` under `key`; a value above `bound` (Infinity: report only) is a failure. */
function record(key: string, value: number, bound: number, input: () => unknown): void {
  let s = stats.get(key);
  if (!s) stats.set(key, (s = { bound, n: 0, worst: 0 }));
  s.n++;
  if (s.at === undefined || Number.isNaN(value) || value > s.worst) {
    s.worst = value;
    s.at = snap(input());
  }
  if (!(value <= bound)) fail(key, `${value} > ${bound}`, input);
}

function assertStats(prefix: string): void {
  const keys = [...failures.keys()].filter((k) => k.startsWith(prefix));
  expect(
    keys.map((k) => `${k}: ${failures.get(k)!.n} case(s)`),
    keys.flatMap((k) => failures.get(k)!.examples).join('\n'),
  ).toEqual([]);
}

const fmt = (x: number) => (x === 0 ? '0' : x.toExponential(2));

// ---------------------------------------------------------------------------------------
// Cases

const f32 = Math.fround;
const f32v = (a: V3): V3 => v(f32(a.x), f32(a.y), f32(a.z));
const add = (a: V3, b: V3): V3 => v(a.x + b.x, a.y + b.y, a.z + b.z);
const sub = (a: V3, b: V3): V3 => v(a.x - b.x, a.y - b.y, a.z - b.z);
const mul = (a: V3, s: number): V3 => v(a.x * s, a.y * s, a.z * s);
const dot = (a: V3, b: V3): number => a.x * b.x + a.y * b.y + a.z * b.z;
const len = (a: V3): number => Math.hypot(a.x, a.y, a.z);
const maxAbs = (a: V3): number => Math.max(Math.abs(a.x), Math.abs(a.y), Math.abs(a.z));
const angleErr = (a: V3, b: V3): number => {
  const c = dot(a, b) / (len(a) * len(b));
  return Number.isFinite(c) ? 1 - c : Infinity;
};

const U24 = 1 << 24;
const uni = (a: number, b: number) => fc.integer({ min: 0, max: U24 }).map((i) => a + ((b - a) * i) / U24);
const vecArb = (a: number, b: number) => fc.tuple(uni(a, b), uni(a, b), uni(a, b)).map(([x, y, z]) => v(x, y, z));
const dirArb = fc.tuple(uni(-1, 1), uni(0, 2 * Math.PI)).map(([z, phi]) => {
  const s = Math.sqrt(1 - z * z);
  return v(s * Math.cos(phi), s * Math.sin(phi), z);
});
const scaleArb = uni(Math.log(0.05), Math.log(50)).map(Math.exp);
const H = Math.SQRT1_2;
const RIGHT_ANGLES: Q4[] = [
  { x: 0, y: 0, z: H, w: H },
  { x: H, y: 0, z: 0, w: H },
  { x: 0, y: H, z: 0, w: H },
  { x: 0, y: 0, z: 1, w: 0 },
  { x: 0.5, y: 0.5, z: 0.5, w: 0.5 },
];
/** Uniform random rotation (Shoemake). */
const randomQuatArb = fc.tuple(uni(0, 1), uni(0, 2 * Math.PI), uni(0, 2 * Math.PI)).map(([u, a, b]) => {
  const s1 = Math.sqrt(1 - u);
  const s2 = Math.sqrt(u);
  return { x: s1 * Math.sin(a), y: s1 * Math.cos(a), z: s2 * Math.sin(b), w: s2 * Math.cos(b) };
});
const rotationArb: fc.Arbitrary<Q4 | undefined> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constant({ x: 0, y: 0, z: 0, w: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom(...RIGHT_ANGLES) },
  { weight: 6, arbitrary: randomQuatArb },
);
/** Half extents in [0.02, 2]; one of them zero in 3 boxes out of 16. */
const halfArb = fc
  .tuple(vecArb(0.02, 2), fc.constantFrom(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 2))
  .map(([h, flat]) => (flat === 0 ? v(0, h.y, h.z) : flat === 1 ? v(h.x, 0, h.z) : flat === 2 ? v(h.x, h.y, 0) : h));

function makeBox(c: V3, h: V3, q: Q4 | undefined): OracleBox {
  const box: OracleBox = { center: f32v(c), halfExtents: f32v(h) };
  if (q) box.rotation = { x: f32(q.x), y: f32(q.y), z: f32(q.z), w: f32(q.w) };
  return box;
}

interface ContactCase {
  a: OracleBox;
  b: OracleBox;
}
const contactArb: fc.Arbitrary<ContactCase> = fc
  .record({ s: scaleArb, cb: vecArb(-4, 4), hb: halfArb, qb: rotationArb, ha: halfArb, qa: rotationArb, dir: dirArb, k: uni(0, 1.3) })
  .map(({ s, cb, hb, qb, ha, qa, dir, k }) => {
    const b = makeBox(mul(cb, s), mul(hb, s), qb);
    const reach = (len(hb) + len(ha)) * s;
    return { b, a: makeBox(add(b.center, mul(dir, k * reach)), mul(ha, s), qa) };
  });

interface CastCase extends ContactCase {
  motion: V3;
}
const castArb: fc.Arbitrary<CastCase> = fc
  .record({ s: scaleArb, cb: vecArb(-4, 4), hb: halfArb, qb: rotationArb, ha: halfArb, qa: rotationArb, dir: dirArb, start: uni(0, 3), aim: vecArb(-1.5, 1.5), reach: uni(0.3, 2.5) })
  .map(({ s, cb, hb, qb, ha, qa, dir, start, aim, reach }) => {
    const b = makeBox(mul(cb, s), mul(hb, s), qb);
    const size = (len(hb) + len(ha)) * s;
    const from = add(b.center, mul(dir, (1 + start) * size));
    const target = add(b.center, v(aim.x * hb.x * s, aim.y * hb.y * s, aim.z * hb.z * s));
    return { b, a: makeBox(from, mul(ha, s), qa), motion: f32v(mul(sub(target, from), reach)) };
  });

const sceneScale = (...xs: V3[]): number => Math.max(...xs.map(maxAbs));

// ---------------------------------------------------------------------------------------
// Checks

function checkContact(c: ContactCase): void {
  const { a, b } = c;
  const S = sceneScale(a.center, a.halfExtents, b.center, b.halfExtents);
  const out = newContact();
  const hit = contactBoxBox(a, b, out);
  const rc = rapierContactBoxBox(a, b, 1e30);
  const input = () => ({ ...c, ours: hit ? { ...out } : null, rapier: rc });
  count(`contact cases (${a.rotation || b.rotation ? 'rotated' : 'axis-aligned'})`);
  const sd = signedDistance(polyOf(a), polyOf(b));
  if (rc === null) {
    // No result from Rapier even with a huge prediction: the exact oracle judges ours alone.
    count('contact Rapier null');
    if (Math.abs(sd) > BAND * S && hit !== sd <= 0) fail('contact hit', `ours ${hit}, Rapier null, exact signed distance ${sd}`, input);
    return;
  }
  if (Math.abs(rc.distance) <= BAND * S) count('contact touching within the band (hit not compared)');
  else if (hit !== rc.distance <= 0) {
    // Rapier and we disagree: the exact oracle decides who is wrong.
    if (Math.abs(sd) > BAND * S && hit !== sd <= 0) fail('contact hit', `ours ${hit}, Rapier distance ${rc.distance}, exact signed distance ${sd}`, input);
    count('contact hit/miss differ: Rapier wrong by the exact oracle');
    record('contact [info] Rapier hit/miss wrong: |Rapier distance − exact|/S', Math.abs(rc.distance - sd) / S, Infinity, input);
  }
  if (!hit) return;
  const exact = Math.max(0, -sd);
  record('contact depth |ours − exact oracle|/S', Math.abs(out.depth - exact) / S, BOUND.depthVsOracleRel, input);
  record('contact | |n| − 1 |', Math.abs(len(out.normal) - 1), BOUND.unit, input);
  if (!(rc.distance <= 0)) return;
  count('contact both hit');
  const rapierDepth = -rc.distance;
  const dd = (out.depth - rapierDepth) / S;
  record('contact [info] depth (ours − Rapier)/S', dd, Infinity, input);
  record('contact [info] depth (Rapier − ours)/S', -dd, Infinity, input);
  if (dd > 1e-5) count('contact Rapier depth below ours by > 1e-5·S');
  if (dd < -1e-5) count('contact Rapier depth above ours by > 1e-5·S');
  record('contact [info] exact − Rapier depth, /S', (exact - rapierDepth) / S, Infinity, input);
  record('contact [info] point |ours − Rapier|/S', len(sub(out.point, rc.pointOnSecond)) / S, Infinity, input);
  if (Math.abs(dd) <= 1e-5 && uniqueAxis(a, b, 1e-3 * S) !== undefined) {
    count('contact depths agree, unique axis: normals compared');
    record('contact normal 1 − dot (depths agree, unique axis)', angleErr(out.normal, rc.normal), BOUND.normal, input);
  }
}

/** min over [0, 1] of the exact signed distance along the path (golden section). */
const pathMin = (c: CastCase): number => convexMin(boxBoxGap(c.a, c.motion, c.b), 0, 1, { iters: 60, minWidth: 1e-12 }).v;

function checkCast(c: CastCase): void {
  const { a, b, motion } = c;
  const S = sceneScale(a.center, add(a.center, motion), motion, a.halfExtents, b.center, b.halfExtents);
  const out = newCast();
  const hit = castBoxBox(a, motion, b, out);
  const rc = rapierCastBoxBox(a, motion, b);
  const input = () => ({ ...c, ours: hit ? { ...out } : null, rapier: rc });
  count('cast cases');
  if (hit) {
    const sigma = boxBoxGap(a, motion, b)(out.toi);
    record('cast |σ(our toi)|/S (exact oracle; 0 when overlapping at the start)', out.toi === 0 ? Math.max(0, sigma) / S : Math.abs(sigma) / S, BOUND.residualRel, input);
    record('cast | |n| − 1 |', Math.abs(len(out.normal) - 1), BOUND.unit, input);
  }
  if (hit !== (rc !== null)) {
    const m = pathMin(c);
    if (Math.abs(m) <= BAND * S) count('cast hit/miss differ, grazing within the band');
    else if (hit && m < 0) {
      count('cast Rapier castShape misses a hit the exact oracle confirms');
      record('cast [info] Rapier castShape missed: our toi', out.toi, Infinity, input);
    } else if (!hit && m > 0) {
      count('cast Rapier castShape hits where the exact oracle stays apart');
      record('cast [info] Rapier castShape false hit: exact path minimum/S', m / S, Infinity, input);
    } else fail('cast hit', `ours ${hit}, Rapier toi ${rc?.toi}, exact path minimum ${m}`, input);
    return;
  }
  if (!hit || !rc) return;
  count(`cast both hit${out.toi === 0 ? ' at the start' : ''}`);
  const approach = Math.max(0, -dot(motion, out.normal) / len(motion));
  const dt = Math.abs(out.toi - rc.toi);
  record('cast toi |Δ|·|m|·cos/max(1,S) vs castShape', (dt * len(motion) * approach) / Math.max(1, S), BOUND.castDistance, input);
  record('cast [info] toi |Δ| vs castShape', dt, Infinity, input);
  if (out.toi > 0) record('cast [info] normal 1 − dot vs castShape', angleErr(out.normal, rc.normal), Infinity, input);
}

// ---------------------------------------------------------------------------------------

beforeAll(async () => {
  await initRapier();
});

afterAll(() => {
  if (!process.env.GEOM_REPORT) return;
  const lines = [`Rapier ${rapierVersion()} box–box differential test, seed ${SEED}. Worst value per quantity:`];
  const keys = [...stats.keys()].sort();
  const w = Math.max(...keys.map((k) => k.length));
  for (const k of keys) {
    const s = stats.get(k)!;
    lines.push(`  ${k.padEnd(w)}  n=${String(s.n).padStart(6)}  worst=${fmt(s.worst).padStart(9)}  ${Number.isFinite(s.bound) ? `bound=${fmt(s.bound)}` : 'report only'}  at ${JSON.stringify(s.at)}`);
  }
  lines.push('Case counts:');
  for (const k of [...counts.keys()].sort()) lines.push(`  ${k.padEnd(w)}  ${counts.get(k)}`);
  console.log(lines.join('\n'));
});

describe('box–box geometry vs Rapier (differential)', () => {
  it(`contactBoxBox: ${N_CONTACT} random cases`, () => {
    for (const c of fc.sample(contactArb, { seed: SEED, numRuns: N_CONTACT })) checkContact(c);
    assertStats('contact');
  });
  it(`castBoxBox: ${N_CAST} random cases`, () => {
    for (const c of fc.sample(castArb, { seed: SEED + 1, numRuns: N_CAST })) checkCast(c);
    assertStats('cast');
  });
});
