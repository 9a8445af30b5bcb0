/**
 * The closing stage of a narrowphase: the removal marks are dropped once every consumer (the
 * narrowphase, the contact diff, the Contact component) has seen them. The only stage that touches
 * bitecs directly, for entities that stopped being bodies.
 * @module
 */
import { entityExists, hasComponent, removeComponent } from 'bitecs';
import { internalsOf } from '../physics/internal.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';

const { SPHERE, BOX } = BodyFlags;

/**
 * Clears the removal marks (`purgeMark`, `purgeList`), and takes the Contact component off entities
 * that survive but are no longer bodies (a removed Sphere or Box component).
 */
export function clearPurged(physics: Physics): void {
  const { purgeList, purgeMark, flags } = internalsOf(physics);
  const { world } = physics;
  const Contact = physics.components.Contact;
  for (let i = 0; i < purgeList.count; i++) {
    const eid = purgeList.ids[i];
    purgeMark[eid] = 0;
    if ((flags[eid] & (SPHERE | BOX)) === 0 && entityExists(world, eid) && hasComponent(world, eid, Contact)) {
      removeComponent(world, eid, Contact);
    }
  }
  purgeList.count = 0;
}
