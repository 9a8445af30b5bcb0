import { contactSphereBox } from './contactSphereBox.js';
import type { BoxShape, ContactResult, SphereShape } from './types.js';

/**
 * Mirror of {@link contactSphereBox}: same depth and point (on the box surface), but `out.normal`
 * points from the sphere toward the box (from the second shape toward the first, as always).
 * Returns false, leaving `out` untouched, when separated and on non-finite input, as
 * contactSphereBox does; `out` may share vectors with the inputs.
 */
export function contactBoxSphere(box: BoxShape, sphere: SphereShape, out: ContactResult): boolean {
  if (!contactSphereBox(sphere, box, out)) return false;
  out.normal.x = -out.normal.x;
  out.normal.y = -out.normal.y;
  out.normal.z = -out.normal.z;
  return true;
}
