/**
 * The contact diff stage of a tick: began/persisting/ended by a merge of this tick's contact list
 * (`physics.contacts`, sorted by (a, b)) with the previous tick's pairs (`internalsOf(physics).contacts.previous`,
 * sorted the same way). Writes the BEGAN / PERSISTING flags of the contacts, `physics.began` (each
 * pair with its contact's flags: BEGAN, and SENSOR for a sensor contact), `physics.ended`, and makes
 * this tick's pairs the previous.
 *
 * Removal: the previous pairs of a body removed since the last narrowphase (entity, Position or
 * shape component removed: `purgeMark`) are reported once in `ended` with `EndedFlags.REMOVED`; a
 * recycled id's contacts are new (BEGAN), even with the same partner.
 * @module
 */
import { flaggedPairListReserve, pairListReserve } from '../physics/idLists.js';
import { internalsOf } from '../physics/internal.js';
import { ContactFlags, EndedFlags, type BeganList, type ContactList, type EndedList, type PairList, type Physics } from '../physics/physicsTypes.js';

const { BEGAN, PERSISTING } = ContactFlags;
const { REMOVED } = EndedFlags;

/**
 * Flags began/persisting, fills `began` (with the contacts' flags) and `ended`, and makes this tick's pairs the previous. A
 * previous pair with a body removed since the last narrowphase ends (REMOVED) even when a recycled
 * id makes the same pair touch again: that contact is a new one (BEGAN).
 *
 * One merge of the two sorted lists writes `began`, `ended` and the next previous pairs (a second
 * pair list, swapped in afterwards); the lists are grown once before it (each holds at most the
 * contacts or the previous pairs), so the merge only stores.
 */
export function diffContacts(physics: Physics): void {
  const list = physics.contacts;
  const internal = internalsOf(physics);
  const state = internal.contacts;
  const { began, ended } = physics;
  const previous = state.previous;
  const next = state.previousNext;
  flaggedPairListReserve(began, list.count);
  flaggedPairListReserve(ended, previous.count);
  pairListReserve(next, list.count);
  mergePairs(list, previous, next, began, ended, internal.purgeMark, internal.purgeList.count !== 0);
  state.previous = next;
  state.previousNext = previous;
  state.diffs++;
}

/**
 * The merge of two lists sorted by (a, b), one pass over both (the set difference both ways, as
 * `std::set_difference` walks two sorted ranges): contact `i` persists when the previous pair at the cursor is the same pair with neither body
 * removed; previous pairs below it ended. Writes the counts of `began`, `ended` and `next`.
 */
function mergePairs(
  list: ContactList, previous: PairList, next: PairList, began: BeganList, ended: EndedList, purgeMark: Uint8Array, removals: boolean,
): void {
  const la = list.a, lb = list.b, lf = list.flags;
  const pa = previous.a, pb = previous.b, pn = previous.count;
  const na = next.a, nb = next.b;
  const ba = began.a, bb = began.b, bf = began.flags;
  const ea = ended.a, eb = ended.b, ef = ended.flags;
  let j = 0, nb0 = 0, ne = 0;
  const n = list.count;
  for (let i = 0; i < n; i++) {
    const a = la[i];
    const b = lb[i];
    na[i] = a;
    nb[i] = b;
    // Previous pairs before (a, b) ended.
    while (j < pn && (pa[j] < a || (pa[j] === a && pb[j] < b))) {
      const x = pa[j], y = pb[j++];
      ea[ne] = x;
      eb[ne] = y;
      ef[ne++] = (purgeMark[x] | purgeMark[y]) !== 0 ? REMOVED : 0;
    }
    const same = j < pn && pa[j] === a && pb[j] === b;
    if (same && !(removals && (purgeMark[a] | purgeMark[b]) !== 0)) {
      lf[i] |= PERSISTING;
      j++;
    } else {
      if (same) {
        // A body of the pair was removed (and its id recycled): the old contact ended, REMOVED.
        ea[ne] = a;
        eb[ne] = b;
        ef[ne++] = REMOVED;
        j++;
      }
      const f = lf[i] | BEGAN;
      lf[i] = f;
      ba[nb0] = a;
      bb[nb0] = b;
      bf[nb0++] = f;
    }
  }
  for (; j < pn; j++) {
    const x = pa[j], y = pb[j];
    ea[ne] = x;
    eb[ne] = y;
    ef[ne++] = (purgeMark[x] | purgeMark[y]) !== 0 ? REMOVED : 0;
  }
  next.count = n;
  began.count = nb0;
  ended.count = ne;
}
