import { loadBoxBox, writeBoxBoxWorld, X, X_SLOTS } from './kernels/boxBoxFrame.js';
import { contactPoint } from './kernels/boxBoxPoint.js';
import { projectAxes, selectStaticAxis, startOverlaps, sweepAxes } from './kernels/boxBoxSat.js';
import type { BoxShape, CastResult, Vec3 } from './types.js';

const { X_TOI } = X_SLOTS;

/**
 * Swept box against box: the first time within one step at which box a, translating by `motion`,
 * touches box b (continuous collision detection: a thin box crossed within one step still hits).
 *
 * Frame and units: world frame, the caller's length unit. `motion` is a's displacement over the step
 * relative to b (for two moving boxes, mA − mB); both boxes keep their orientation during the step.
 * Result: `out.toi` in [0, 1] is the first fraction of `motion` at which they touch (0 when they touch
 * or overlap at the start: then `out` is the static contact of {@link contactBoxBox}); `out.normal` is
 * unit, from b toward a, the axis that closes at toi (among axes closing together up to rounding,
 * the first in the order of {@link contactBoxBox}); `out.point` is a point where they touch at
 * impact, on b's surface (b at rest), chosen as {@link contactBoxBox} chooses it. Solids are closed:
 * grazing contact hits, and whenever the static test at the end pose (a moved by `motion`) overlaps,
 * the cast hits. Returns false, leaving `out` untouched, when they do not touch within the step or
 * any input is NaN or infinite. `out` may share objects with the inputs.
 *
 * Algorithm: the separating axis test on the 15 axes with intervals over time (Ericson, Real-Time
 * Collision Detection, 5.5.8, generalised to oriented boxes): on each axis the overlap is one interval
 * of the motion fraction; the first contact is the latest entry, if it is not after the earliest exit.
 * Exact for flat boxes, zero motion and motions far longer than the boxes. No allocation.
 */
export function castBoxBox(a: BoxShape, motion: Vec3, b: BoxShape, out: CastResult): boolean {
  if (!loadBoxBox(a, b, motion) || !projectAxes(true)) return false;
  if (startOverlaps()) selectStaticAxis();
  else if (!sweepAxes()) return false;
  contactPoint();
  out.toi = X[X_TOI];
  writeBoxBoxWorld(b, out);
  return true;
}
