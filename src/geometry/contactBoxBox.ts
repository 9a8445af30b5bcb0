import { loadBoxBox, writeBoxBoxWorld, X, X_SLOTS } from './kernels/boxBoxFrame.js';
import { contactPoint } from './kernels/boxBoxPoint.js';
import { projectAxes, selectStaticAxis } from './kernels/boxBoxSat.js';
import type { BoxShape, ContactResult } from './types.js';

const { X_DEPTH } = X_SLOTS;

/**
 * Static contact between two oriented boxes at their current poses.
 *
 * Frame and units: world frame, the caller's length unit; rotations are unit quaternions (absent =
 * axis-aligned).
 * Result (when it returns true): `out.depth` >= 0 is the minimum translation distance, the overlap
 * along the separating axis of least overlap (0 = touching; solids are closed); `out.normal` is that
 * axis, unit, pointing from b toward a: moving a by depth·normal makes the boxes touch. Among axes
 * whose overlaps are equal up to rounding (a relative 2^-40), the first in the order b's face normals
 * x, y, z, a's face normals x, y, z, edge pairs (b's edge x, y, z crossed with a's x, y, z); when a's
 * centre projects onto b's on that axis, the normal is the axis's + direction.
 * `out.point` lies on b's surface: for a face axis, the mean of the vertices of the part of the other
 * box's most opposed face that lies within the reference face's side planes and not above it (moved
 * onto b's reference face along the normal when the axis is one of b's); for an edge pair, the point
 * of b's edge closest to a's edge. When the boxes touch it is a point where they touch; when they
 * overlap it lies within depth of a. See docs/api.md for the details and the fallbacks.
 * Returns false, leaving `out` untouched, when the boxes are separated or any input is NaN or
 * infinite. `out` may share objects with the inputs (all inputs are read first).
 *
 * Algorithm: the separating axis test on 15 axes (Gottschalk, Lin and Manocha, "OBBTree", SIGGRAPH
 * 1996; Ericson, Real-Time Collision Detection, 4.4.1), then reference-face clipping for the point
 * (Ericson 8.3) or the closest points of two edges (5.1.9). Flat boxes are exact. No allocation.
 */
export function contactBoxBox(a: BoxShape, b: BoxShape, out: ContactResult): boolean {
  if (!loadBoxBox(a, b, undefined) || !projectAxes(false)) return false;
  selectStaticAxis();
  contactPoint();
  out.depth = X[X_DEPTH];
  writeBoxBoxWorld(b, out);
  return true;
}
