/**
 * Box–box candidate pairs of the broadphase: a moving box's candidates (found by its own sliced
 * query of both grids, see `findPairs.ts`) become pairs (a, b) with `a` the lower entity id, into
 * `broadphase.boxPairs`; at the end of the tick they are sorted and merged into `broadphase.pairs`, so
 * that the whole candidate list stays sorted by (a, b). Static–static pairs are never listed (only
 * moving boxes query); a pair of two moving boxes is listed by the lower id. Filters as for spheres
 * (CollisionFilter group/mask both ways). No allocation except doubling.
 * @module
 */
import { sortUniqueIds } from '../grid/sortIds.js';
import { pairListPush, pairListReserve } from '../physics/idLists.js';
import { PhysicsInputError } from '../physics/errors.js';
import { BodyFlags, type PairList, type Physics } from '../physics/physicsTypes.js';
import { internalsOf } from '../physics/internal.js';
import { undoGravity } from './gravityUndo.js';

const { SPHERE, BOX, MOVING } = BodyFlags;

/**
 * Throws when this tick's candidate pairs would exceed the contact budget (after undoing this tick's
 * gravity): `listed` pairs so far,
 * `candidates` more at body `a` (the sphere or moving box whose pairs are being listed).
 */
export function budgetError(physics: Physics, a: number, listed: number, candidates: number): never {
  // Gravity was this tick's only write so far: undone, the world is as it was before the step.
  undoGravity(physics);
  const budget = internalsOf(physics).broadphase.contactBudget;
  throw new PhysicsInputError({
    eid: a,
    field: 'options.contactBudget',
    problem: `this tick has more than ${budget} candidate contact pairs (the contact budget): ${listed} listed ` +
      `before entity ${a}, which adds up to ${candidates} more. Spread the bodies out, filter pairs (CollisionFilter), or raise contactBudget`,
  });
}

/**
 * Appends the pairs of moving box `m` with the candidates in `broadphase.query` that are boxes (not
 * spheres: a sphere lists its own pairs), not `m`, static or of a higher id (the lower id of two
 * moving boxes lists their pair), and pass the filters. Each pair is (lower id, higher id).
 */
export function emitBoxPairs(physics: Physics, m: number): void {
  const internal = internalsOf(physics);
  const { flags } = internal;
  const bp = internal.broadphase;
  const { query, boxPairs } = bp;
  const { group, mask } = physics.components.CollisionFilter;
  const ids = query.ids;
  const n = sortUniqueIds(ids, query.count);
  const budget = bp.contactBudget;
  const gm = group[m];
  const mm = mask[m];
  for (let k = 0; k < n; k++) {
    const b = ids[k];
    const fb = flags[b];
    if (b === m || (fb & (SPHERE | BOX)) !== BOX || ((fb & MOVING) !== 0 && b < m)) continue;
    if ((gm & mask[b]) === 0 || (group[b] & mm) === 0) continue;
    if (bp.pairs.count + boxPairs.count >= budget) budgetError(physics, m, bp.pairs.count + boxPairs.count, n - k);
    if (b < m) pairListPush(boxPairs, b, m);
    else pairListPush(boxPairs, m, b);
  }
}

/** Whether pair i of `l` comes after pair j in (a, b) order. */
function after(l: PairList, i: number, j: number): boolean {
  return l.a[i] !== l.a[j] ? l.a[i] > l.a[j] : l.b[i] > l.b[j];
}

function swap(l: PairList, i: number, j: number): void {
  const a = l.a[i];
  const b = l.b[i];
  l.a[i] = l.a[j];
  l.b[i] = l.b[j];
  l.a[j] = a;
  l.b[j] = b;
}

function siftDown(l: PairList, root: number, n: number): void {
  let i = root;
  for (;;) {
    let c = 2 * i + 1;
    if (c >= n) return;
    if (c + 1 < n && after(l, c + 1, c)) c++;
    if (!after(l, c, i)) return;
    swap(l, i, c);
    i = c;
  }
}

/** Sorts the pairs of `l` by (a, b) in place: heapsort (Williams 1964), O(n log n), no allocation. */
export function sortPairs(l: PairList): void {
  const n = l.count;
  for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(l, i, n);
  for (let end = n - 1; end > 0; end--) {
    swap(l, 0, end);
    siftDown(l, 0, end);
  }
}

/**
 * Sorts `broadphase.boxPairs` and merges it into `broadphase.pairs` (both sorted by (a, b); their pairs
 * differ, since a sphere pair's `a` is a sphere and a box pair's a box), from the back, in place.
 */
export function mergeBoxPairs(physics: Physics): void {
  const { pairs, boxPairs: box } = internalsOf(physics).broadphase;
  const n2 = box.count;
  if (n2 === 0) return;
  sortPairs(box);
  const n1 = pairs.count;
  pairListReserve(pairs, n1 + n2);
  let i = n1 - 1;
  let j = n2 - 1;
  for (let k = n1 + n2 - 1; j >= 0; k--) {
    const fromPairs = i >= 0 && (pairs.a[i] !== box.a[j] ? pairs.a[i] > box.a[j] : pairs.b[i] > box.b[j]);
    pairs.a[k] = fromPairs ? pairs.a[i] : box.a[j];
    pairs.b[k] = fromPairs ? pairs.b[i] : box.b[j];
    if (fromPairs) i--;
    else j--;
  }
  pairs.count = n1 + n2;
}
