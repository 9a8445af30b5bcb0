/**
 * Rapier (`@dimforge/rapier3d-compat` 0.21.0: parry3d in float32, WASM) cuboid–cuboid queries in our
 * conventions, for the box–box differential test. Call `initRapier()` (test/oracle/rapier.ts) first.
 *
 * - `b.contactShape(b, a, prediction)`: Rapier's `normal1` is the outward normal of shape 1 = b, i.e.
 *   from b toward a (our convention); `point1` is its witness on b; `distance` < 0 is penetration.
 *   parry's cuboid–cuboid contact (contact_cuboid_cuboid.rs) finds the best separating axis by SAT
 *   (b's faces, a's faces, edge pairs; ties to b's faces, then a's), then for a face axis takes the
 *   support vertex of the other cuboid along −normal and projects it onto the whole reference cuboid:
 *   the distance reported is that vertex's offset along the normal from its projection, which is not
 *   the SAT overlap when the projection lands on another face (see the differential test).
 * - `a.castShape(a, motion, b)`: `time_of_impact` in units of the velocity (motion, maxToi 1: our
 *   fraction); `normal2` and `witness2` are in b's local frame, converted here to the world at impact.
 * The two Cuboid objects are reused (each query builds and frees its own raw WASM shapes).
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { rotate, type OracleBox, type OracleCast, type OracleContact, type V3 } from './rapier.js';

const IDENTITY = { x: 0, y: 0, z: 0, w: 1 };
const ZERO: V3 = { x: 0, y: 0, z: 0 };

let cuboids: [RAPIER.Cuboid, RAPIER.Cuboid] | undefined;

/** The two reusable cuboids with a's and b's half extents (after initRapier()). */
function shapes(a: OracleBox, b: OracleBox): [RAPIER.Cuboid, RAPIER.Cuboid] {
  cuboids ??= [new RAPIER.Cuboid(1, 1, 1), new RAPIER.Cuboid(1, 1, 1)];
  cuboids[0].halfExtents = { ...a.halfExtents };
  cuboids[1].halfExtents = { ...b.halfExtents };
  return cuboids;
}

const copy = (v: V3): V3 => ({ x: v.x, y: v.y, z: v.z });

/** Rapier's contact of boxes a and b (normal from b toward a, point on b), or null beyond `prediction`. */
export function rapierContactBoxBox(a: OracleBox, b: OracleBox, prediction = 0): OracleContact | null {
  const [ca, cb] = shapes(a, b);
  const c = cb.contactShape(b.center, b.rotation ?? IDENTITY, ca, a.center, a.rotation ?? IDENTITY, prediction);
  if (!c) return null;
  return { distance: c.distance, normal: copy(c.normal1), pointOnSecond: copy(c.point1), pointOnFirst: copy(c.point2) };
}

/** The world point of a box's local point `local`, the box moved by `shift`. */
function worldOf(box: OracleBox, local: V3, shift: V3 = ZERO): V3 {
  const r = rotate(box.rotation, local);
  return { x: box.center.x + shift.x + r.x, y: box.center.y + shift.y + r.y, z: box.center.z + shift.z + r.z };
}

/** Rapier's time of impact of box a translating by `motion` against the fixed box b, or null. */
export function rapierCastBoxBox(a: OracleBox, motion: V3, b: OracleBox): OracleCast | null {
  const [ca, cb] = shapes(a, b);
  const hit = ca.castShape(a.center, a.rotation ?? IDENTITY, motion, cb, b.center, b.rotation ?? IDENTITY, ZERO, 0, 1, true);
  if (!hit) return null;
  const t = hit.time_of_impact;
  const moved = { x: t * motion.x, y: t * motion.y, z: t * motion.z };
  return { toi: t, normal: rotate(b.rotation, hit.normal2), pointOnSecond: worldOf(b, hit.witness2), pointOnFirst: worldOf(a, hit.witness1, moved) };
}
