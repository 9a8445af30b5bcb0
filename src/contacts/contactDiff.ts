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
import { flaggedPairListPush, pairListPush } from '../physics/idLists.js';
import { internalsOf } from '../physics/internal.js';
import { ContactFlags, EndedFlags, type Physics } from '../physics/physicsTypes.js';

function comparePairs(a1: number, b1: number, a2: number, b2: number): number {
  return a1 !== a2 ? a1 - a2 : b1 - b2;
}

/**
 * Ends previous pair `j`: appended to `ended`, flagged REMOVED when one of its bodies was removed
 * since the last narrowphase (`purgeMark`).
 */
function endPrevious(physics: Physics, j: number): void {
  const { contacts: { previous }, purgeMark } = internalsOf(physics);
  const a = previous.a[j];
  const b = previous.b[j];
  flaggedPairListPush(physics.ended, a, b, (purgeMark[a] | purgeMark[b]) !== 0 ? EndedFlags.REMOVED : 0);
}

/**
 * Flags began/persisting, fills `began` (with the contacts' flags) and `ended`, and makes this tick's pairs the previous. A
 * previous pair with a body removed since the last narrowphase ends (REMOVED) even when a recycled
 * id makes the same pair touch again: that contact is a new one (BEGAN).
 */
export function diffContacts(physics: Physics): void {
  const list = physics.contacts;
  const { contacts: { previous }, purgeMark, purgeList } = internalsOf(physics);
  const { began, ended } = physics;
  const removals = purgeList.count !== 0;
  began.count = 0;
  ended.count = 0;
  let j = 0;
  for (let i = 0; i < list.count; i++) {
    const a = list.a[i];
    const b = list.b[i];
    while (j < previous.count && comparePairs(previous.a[j], previous.b[j], a, b) < 0) endPrevious(physics, j++);
    const same = j < previous.count && previous.a[j] === a && previous.b[j] === b;
    if (same && !(removals && (purgeMark[a] | purgeMark[b]) !== 0)) {
      list.flags[i] |= ContactFlags.PERSISTING;
      j++;
    } else {
      if (same) endPrevious(physics, j++);
      list.flags[i] |= ContactFlags.BEGAN;
      flaggedPairListPush(began, a, b, list.flags[i]);
    }
  }
  for (; j < previous.count; j++) endPrevious(physics, j);
  previous.count = 0;
  for (let i = 0; i < list.count; i++) pairListPush(previous, list.a[i], list.b[i]);
}
