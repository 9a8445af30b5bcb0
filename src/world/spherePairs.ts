/**
 * A sphere's candidate pairs: the candidates of its queries (`internal.query`) sorted, without
 * repeats, filtered (itself, a sphere of a lower id, CollisionFilter) and appended to
 * `internal.pairs` as (sphere, other), within the contact budget.
 * @module
 */
import { sortUniqueIds } from '../broadphase/sortIds.js';
import { PhysicsInputError } from './errors.js';
import { internalsOf } from './internal.js';
import { pairListPush } from './lists.js';
import { BodyFlags, type Physics } from './types.js';

const { SPHERE } = BodyFlags;

/** Throws when this tick's candidate pairs would exceed the contact budget, at sphere `a`. */
function budgetError(physics: Physics, a: number, candidates: number): never {
  const internal = internalsOf(physics);
  const budget = internal.contactBudget;
  throw new PhysicsInputError({
    eid: a,
    field: 'options.contactBudget',
    problem: `this tick has more than ${budget} candidate contact pairs (the contact budget): ${internal.pairs.count} listed ` +
      `before entity ${a}, which adds up to ${candidates} more. Spread the bodies out, filter pairs (CollisionFilter), or raise contactBudget`,
  });
}

/** Appends the pairs of sphere `a` with its candidates that pass the filters. */
export function emitPairs(physics: Physics, a: number): void {
  const internal = internalsOf(physics);
  const { flags, query, pairs } = internal;
  const { group, mask } = physics.components.CollisionFilter;
  const ids = query.ids;
  const n = sortUniqueIds(ids, query.count);
  const budget = internal.contactBudget;
  const ga = group[a];
  const ma = mask[a];
  for (let k = 0; k < n; k++) {
    const b = ids[k];
    if (b === a || ((flags[b] & SPHERE) !== 0 && b < a)) continue;
    if ((ga & mask[b]) === 0 || (group[b] & ma) === 0) continue;
    if (pairs.count >= budget) budgetError(physics, a, n - k);
    pairListPush(pairs, a, b);
  }
}
