/**
 * Differential test: contactBoxBox and castBoxBox against Rapier 3D 0.21.0 (@dimforge/rapier3d-compat:
 * parry3d in float32, WASM), helpers in test/oracle/boxBoxRapier.ts. The ground truth for our depths
 * is the exact oracle (test/oracle/boxBox.ts), not Rapier: see DEPTH below.
 *
 * CASES. fast-check arbitraries sampled with a fixed seed: 20,000 contacts and 10,000 casts. Scene
 * scale log-uniform in [0.05, 50]; half extents in [0.02, 2]·scale, one of them zero (a rectangle)
 * in 3 boxes out of 16; rotations from the geometry tests' mixture (absent, special, random, about
 * one axis). Contacts: a's
 * centre at b's plus a random direction times 0 … 1.3 of the sum of the circumradii. Casts: a starts
 * 0 … 3 sizes away and aims at a point of b (or beside it) with 0.3 … 2.5 of the distance. Every input
 * is rounded to float32, so both libraries see the same numbers (float32 quaternions are unit only to
 * ~1e-7, which neither library corrects). Failures are collected with their inputs, and the worst
 * case of each quantity is kept; BITECS_COLLIDE_REPORT=1 prints them with the case counts.
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
 * distance, below it in 521 of the 8,309 overlapping cases by more than 1e-5·S (worst: two boxes
 * with the same centre, Rapier's depth 0 and both witnesses at that centre, instead of 122.48, i.e.
 * 1.54·S; nearly concentric boxes give near-zero depths too) and never above it by more than float32
 * rounding here (an earlier sample had one such case: 80.76 instead of 71.09, along an edge axis). Where the depths agree (within 1e-5·S) and the oracle's axis is unique
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
import { rotationArb, uRange, unitDir, vecIn } from './arbitraries.js';
import { newCast, newContact, vec3 as v } from '../support/shapes.js';
import { uniqueAxis } from './checksBoxBox.js';
import { Tally } from '../support/boxBoxReport.js';

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

/** Case counts, worst values and failures of both tests. */
const tally = new Tally();
const count = (key: string): void => tally.count(key);
const fail = (key: string, msg: string, input: () => unknown): void => tally.fail(key, msg, input);
const record = (key: string, value: number, bound: number, input: () => unknown): void => tally.record(key, value, bound, input);

function assertStats(prefix: string): void {
  const { summary, examples } = tally.failures(prefix);
  expect(summary, examples).toEqual([]);
}

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

const vecArb = (a: number, b: number) => vecIn(a, b).map((p) => v(p.x, p.y, p.z));
const dirArb = unitDir.map(([x, y, z]) => v(x, y, z));
/** Log-uniform scene scale in [0.05, 50]. */
const scaleArb = uRange(Math.log(0.05), Math.log(50)).map(Math.exp);
/** Half extents in [0.02, 2]; one of them zero (a rectangle) in 3 boxes out of 16. */
const halfArb = fc
  .tuple(vecArb(0.02, 2), fc.integer({ min: 0, max: 15 }))
  .map(([h, pick]) => (pick > 2 ? h : v(pick === 0 ? 0 : h.x, pick === 1 ? 0 : h.y, pick === 2 ? 0 : h.z)));

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
  .record({ s: scaleArb, cb: vecArb(-4, 4), hb: halfArb, qb: rotationArb, ha: halfArb, qa: rotationArb, dir: dirArb, k: uRange(0, 1.3) })
  .map(({ s, cb, hb, qb, ha, qa, dir, k }) => {
    const b = makeBox(mul(cb, s), mul(hb, s), qb);
    const reach = (len(hb) + len(ha)) * s;
    return { b, a: makeBox(add(b.center, mul(dir, k * reach)), mul(ha, s), qa) };
  });

interface CastCase extends ContactCase {
  motion: V3;
}
const castArb: fc.Arbitrary<CastCase> = fc
  .record({ s: scaleArb, cb: vecArb(-4, 4), hb: halfArb, qb: rotationArb, ha: halfArb, qa: rotationArb, dir: dirArb, start: uRange(0, 3), aim: vecArb(-1.5, 1.5), reach: uRange(0.3, 2.5) })
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

afterAll(() => tally.print(`Rapier ${rapierVersion()} box–box differential test, seed ${SEED}. Worst value per quantity:`));

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
