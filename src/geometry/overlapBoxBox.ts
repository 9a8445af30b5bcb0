import { loadBoxBox } from './kernels/boxBoxFrame.js';
import { projectAxes } from './kernels/boxBoxSat.js';
import type { BoxShape } from './types.js';

/**
 * Whether two oriented boxes overlap or touch (solids are closed: touching is true). Flat boxes (zero
 * half extents: rectangles, segments, points) are exact too.
 *
 * Frame and units: world frame, the caller's length unit; rotations are unit quaternions (absent =
 * axis-aligned). Returns false when any input is NaN or infinite.
 *
 * Algorithm: the separating axis test on the 15 axes of two boxes (b's and a's face normals, the 9
 * cross products of their edge directions), in b's frame, each axis used as the vector actually
 * computed so that parallel edges cannot create a false separating axis (Gottschalk, Lin and Manocha,
 * "OBBTree", SIGGRAPH 1996; Ericson, Real-Time Collision Detection, 4.4.1). No allocation.
 */
export function overlapBoxBox(a: BoxShape, b: BoxShape): boolean {
  return loadBoxBox(a, b, undefined) && projectAxes(false);
}
