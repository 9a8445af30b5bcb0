/**
 * The narrowphase stage of a tick: every candidate pair without a dynamic body through the geometry
 * functions, into `physics.contacts` (sorted by (a, b) because the candidate pairs are), into which
 * the response, when it runs, merges the contacts of the dynamic bodies' paths. Pure over typed
 * arrays.
 *
 * A pair is in contact when the two bodies touch at any moment of the tick's motion (relative
 * velocity × dt) with continuous contacts on, or at the current pose otherwise. `toi` is the first
 * such fraction of the tick (0 when already touching at its start); normal, depth and point are
 * those of the geometry API at the time of impact; the point is where it is in the world then.
 * @module
 */
import { contactListReserve, contactListSwap } from '../physics/idLists.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';
import { internalsOf } from '../physics/internal.js';
import { isDynamic } from '../response/isDynamic.js';
import { isCharacter } from '../character/isCharacter.js';
import { testCandidate } from './pairTest.js';

const { SPHERE, BOX, MOVING } = BodyFlags;

/** Whether (a, b) is a box–box pair the broadphase lists: two boxes (not spheres), a < b, one moving. */
function isBoxPair(flags: Uint8Array, a: number, b: number): boolean {
  const fa = flags[a];
  const fb = flags[b];
  return (fa & (SPHERE | BOX)) === BOX && (fb & (SPHERE | BOX)) === BOX && a < b && ((fa | fb) & MOVING) !== 0;
}

/**
 * Whether candidate pair (a, b) still fits the broadphase's contract: a is a sphere; b a box, or a
 * sphere with a higher id; or a box–box pair ({@link isBoxPair}); the filters pass. Asked only for
 * pairs with a body removed since the last narrowphase: an id removed between the broadphase and
 * the narrowphase and recycled as another kind of body (or with another filter) must not give a
 * pair the broadphase would never have listed (e.g. two spheres with a > b, out of order).
 */
function stillCandidate(physics: Physics, a: number, b: number): boolean {
  const flags = internalsOf(physics).flags;
  const { group, mask } = physics.components.CollisionFilter;
  const fb = flags[b];
  const fits = (flags[a] & SPHERE) !== 0 ? ((fb & SPHERE) !== 0 ? b > a : (fb & BOX) !== 0) : isBoxPair(flags, a, b);
  if (!fits) return false;
  return (group[a] & mask[b]) !== 0 && (group[b] & mask[a]) !== 0;
}

/**
 * Tests the candidate pairs `internalsOf(physics).broadphase.pairs` into `physics.contacts` (its count reset
 * first). With dynamic bodies (spheres with Response), their pairs are skipped: the response moves
 * them and merges the contacts of the paths they take (src/response); so are the pairs with a
 * character (src/character moves it and merges its contacts).
 */
export function testPairs(physics: Physics): void {
  const internal = internalsOf(physics);
  const { flags, purgeMark, responseCount, characterCount } = internal;
  const bp = internal.broadphase;
  const pairs = bp.pairs;
  const list = physics.contacts;
  // Tested in the broadphase's queries (findPairs.ts, `tested`): taken over unless, since then, a
  // body was removed, the game wrote a body through the helpers or `set()` (pose, velocity, shape,
  // filter), a body gained or lost a component (a Response or a Character added: the response or
  // the character stage now reports its pairs) — then the pairs below are tested at the current
  // poses, as when the path was not taken. Taken by exchanging the two lists' arrays (O(1); copying
  // them measured 1.03 to 1.07 of the tick at 100,000 spheres), so `physics.contacts`'s arrays may
  // be other objects after a tick (docs/api.md: read them through their owner). Taken once
  // (`tested` 2): a narrowphase run again on the same broadphase tests the pairs below, as it
  // would have without the takeover.
  if (bp.tested === 1 && internal.purgeList.count === 0 && internal.writes === bp.testedWrites &&
    responseCount === 0 && characterCount === 0) {
    contactListSwap(list, bp.testedContacts);
    bp.tested = 2;
    return;
  }
  if (bp.tested === 1) bp.tested = 2;
  contactListReserve(list, pairs.count);
  list.count = 0;
  for (let i = 0; i < pairs.count; i++) {
    const a = pairs.a[i];
    const b = pairs.b[i];
    // Pairs with a dynamic body are the response's (contacts along the path it takes).
    if (responseCount !== 0 && (isDynamic(flags[a]) || isDynamic(flags[b]))) continue;
    // Pairs with a character are the character stage's (contacts along the path it takes).
    if (characterCount !== 0 && (isCharacter(flags[a]) || isCharacter(flags[b]))) continue;
    // A body removed between the broadphase and now is skipped, and so is a pair whose id was
    // recycled meanwhile as a body the pair no longer fits.
    if ((purgeMark[a] | purgeMark[b]) !== 0 && !stillCandidate(physics, a, b)) continue;
    testCandidate(physics, list, a, b);
  }
}
