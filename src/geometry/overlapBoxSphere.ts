import { overlapSphereBox } from './overlapSphereBox.js';
import type { BoxShape, SphereShape } from './types.js';

/** Mirror of {@link overlapSphereBox} with the arguments swapped; same result (false on non-finite input). */
export function overlapBoxSphere(box: BoxShape, sphere: SphereShape): boolean {
  return overlapSphereBox(sphere, box);
}
