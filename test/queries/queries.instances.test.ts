/**
 * The world queries keep their state per physics instance: two different worlds (one on the dense
 * query grid, one on the hashed grids, other body sizes and counts), queried in turn query by query
 * with steps in between, give every answer equal, bit for bit, to the same query sequence on a
 * fresh copy of each world queried alone.
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, castRay, castRayAll, castSphere, castSphereAll, createEntityList, createHitList, createPhysics,
  overlapBox, overlapSphere, step, type Physics, type QueryHit,
} from '../../src/index.js';
import { queryState, setDenseQueries } from '../../src/queries/queryGrid.js';
import { createRng } from '../../src/scenes/prng.js';

interface WorldSpec { seed: number; n: number; side: number; size: number; dense: boolean }

const A: WorldSpec = { seed: 7, n: 400, side: 20, size: 0.6, dense: true };
const B: WorldSpec = { seed: 8, n: 150, side: 40, size: 2.5, dense: false };

/** A world of spheres (moving) and boxes (static, some rotated) in a cube of side `spec.side`, stepped once. */
function build(spec: WorldSpec): Physics {
  const rng = createRng(spec.seed);
  const physics = createPhysics(createWorld());
  const at = (): [number, number, number] => [rng.range(0, spec.side), rng.range(0, spec.side), rng.range(0, spec.side)];
  for (let i = 0; i < spec.n; i++) {
    const s = spec.size;
    if (i % 3 === 0) {
      const rotation: [number, number, number, number] | undefined = i % 2 === 0 ? [0.2, 0.4, 0.1, 0.9] : undefined;
      addBox(physics, { position: at(), halfExtents: [rng.range(0.1, s), rng.range(0.1, s), rng.range(0.1, s)], rotation });
    } else {
      addSphere(physics, { position: at(), radius: rng.range(0.05, s), velocity: [rng.range(-2, 2), rng.range(-2, 2), rng.range(-2, 2)] });
    }
  }
  if (!spec.dense) setDenseQueries(physics, false);
  step(physics);
  return physics;
}

const hit: QueryHit = { entity: 0, distance: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };
const hits = createHitList(2);
const ents = createEntityList(2);

/** Query `k` of the sequence on a world of side `side` (kind by k mod 6, inputs from a seed of k), its answer as numbers. */
function ask(physics: Physics, side: number, k: number): number[] {
  const rng = createRng(1000 + k);
  const o: [number, number, number] = [rng.range(-2, side + 2), rng.range(-2, side + 2), rng.range(-2, side + 2)];
  const d: [number, number, number] = [rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)];
  const far = rng.range(0, side * 1.5);
  const r = rng.range(0, 1.5);
  const filter = k % 5 === 0 ? { exclude: 1 + (k % 7), sensors: true } : undefined;
  const one = (found: boolean): number[] =>
    found ? [hit.entity, hit.distance, hit.normal.x, hit.normal.y, hit.normal.z, hit.point.x, hit.point.y, hit.point.z] : [-1];
  const list = (n: number): number[] => {
    const a = [n];
    for (let i = 0; i < n; i++) a.push(hits.entity[i], hits.distance[i], hits.nx[i], hits.ny[i], hits.nz[i], hits.px[i], hits.py[i], hits.pz[i]);
    return a;
  };
  const ids = (n: number): number[] => [n, ...ents.ids.subarray(0, n)];
  switch (k % 6) {
    case 0: return one(castRay(physics, o, d, far, hit, filter));
    case 1: return one(castSphere(physics, o, r, d, far, hit, filter));
    case 2: return list(castRayAll(physics, o, d, far, hits, filter));
    case 3: return list(castSphereAll(physics, o, r, d, far, hits, filter));
    case 4: return ids(overlapSphere(physics, o, 2 * r, ents, filter));
    default: return ids(overlapBox(physics, o, [r, 2 * r, 0.5], [d[0], d[1], d[2], 1], ents, filter));
  }
}

const ROUNDS = 4;
const QUERIES = 120;

/** The answers of the query sequence on `physics` alone: QUERIES queries per round, a step after each round. */
function alone(spec: WorldSpec): number[][] {
  const physics = build(spec);
  const out: number[][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < QUERIES; k++) out.push(ask(physics, spec.side, round * QUERIES + k));
    step(physics);
  }
  return out;
}

describe('world queries, two instances', () => {
  it('queried in turn, each world answers as when queried alone', () => {
    const refA = alone(A);
    const refB = alone(B);
    const a = build(A), b = build(B);
    expect(queryState(a).useDense).toBe(true);
    expect(queryState(b).useDense).toBe(false);
    let answers = 0, found = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < QUERIES; k++) {
        const i = round * QUERIES + k;
        // Alternate which world goes first, so each query follows one on the other world.
        const first = k % 2 === 0 ? a : b;
        const x = ask(first, first === a ? A.side : B.side, i);
        const y = ask(first === a ? b : a, first === a ? B.side : A.side, i);
        const [ansA, ansB] = first === a ? [x, y] : [y, x];
        expect(ansA).toEqual(refA[i]);
        expect(ansB).toEqual(refB[i]);
        answers += 2;
        if (ansA[0] > 0) found++;
        if (ansB[0] > 0) found++;
      }
      step(a);
      step(b);
    }
    expect(answers).toBe(2 * ROUNDS * QUERIES);
    // The sequence is not vacuous: a good share of the queries find something (290 of 960 when written).
    expect(found).toBeGreaterThan(answers / 4);
  });
});
