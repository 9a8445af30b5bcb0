/**
 * The closing stage of a narrowphase: the removal marks are dropped once every consumer (the
 * narrowphase, the contact diff, the Contact component) has seen them. The only stage that touches
 * bitecs directly, for entities that stopped being bodies since the last narrowphase.
 * @module
 */
import { entityExists, hasComponent, removeComponent } from 'bitecs';
import { internalsOf } from '../physics/internal.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';

const { SPHERE, BOX } = BodyFlags;

/**
 * Clears the removal marks (`purgeMark`, `purgeList`), and takes the Contact component off the
 * removed entities that survive without a contact this tick: those no longer bodies (a removed
 * Sphere, Box or Position) and, with `contactComponent` on, those that are bodies again (pooled:
 * Position removed, then added back before this step) but touch nothing now. The body removal
 * (an onRemove observer) drops their HAS_CONTACT flag, so `applyContactComponent` does not see them;
 * `Contact.count` is this tick's count for every entity (0 for one not touching).
 */
export function clearPurged(physics: Physics): void {
  const { purgeList, purgeMark, flags } = internalsOf(physics);
  const { world } = physics;
  const Contact = physics.components.Contact;
  const counted = physics.contactComponent;
  for (let i = 0; i < purgeList.count; i++) {
    const eid = purgeList.ids[i];
    purgeMark[eid] = 0;
    const stale = (flags[eid] & (SPHERE | BOX)) === 0 || (counted && Contact.count[eid] === 0);
    if (stale && entityExists(world, eid) && hasComponent(world, eid, Contact)) {
      removeComponent(world, eid, Contact);
    }
  }
  purgeList.count = 0;
}
