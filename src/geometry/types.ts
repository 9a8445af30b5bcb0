/**
 * Plain data types of the geometry API.
 *
 * Conventions (the same in every geometry function):
 * - Frame: right-handed world frame; all inputs and outputs are world coordinates.
 * - Units: whatever length unit the caller uses (metres in the examples); no unit is assumed.
 * - Quaternions are unit quaternions (x, y, z, w) mapping the box's local frame to the world:
 *   `world = center + rotate(rotation, local)`. They are not renormalised by the geometry functions.
 * - Plain object literals are accepted everywhere; no class instances are required.
 *
 * @module
 */

/** A vector or point in 3D, in world units. */
export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

/** A unit quaternion (x, y, z, w); identity is (0, 0, 0, 1). */
export interface Quat {
  x: number;
  y: number;
  z: number;
  w: number;
}

/** A solid sphere (a circle when z = 0 and motion has no z). `radius >= 0`; radius 0 is a point. */
export interface SphereShape {
  center: Vec3;
  radius: number;
}

/**
 * A solid box: `center`, non-negative `halfExtents` along its local axes, and an optional unit
 * `rotation` from local to world (absent = axis-aligned). Zero half extents are valid (a rectangle,
 * a segment or a point). A 2D rectangle is a box whose centre and rotation lie in the z = 0 plane
 * (rotation about z only) with any half extent z >= 0.
 */
export interface BoxShape {
  center: Vec3;
  halfExtents: Vec3;
  rotation?: Quat;
}

/**
 * Result of a `contact*` query.
 * - `normal`: unit vector from the second shape toward the first shape's centre (the direction
 *   that pushes the first shape out).
 * - `depth`: overlap distance, >= 0 when the function returns true (0 = touching).
 * - `point`: the point on the second shape's surface closest to the first shape's centre.
 */
export interface ContactResult {
  normal: Vec3;
  depth: number;
  point: Vec3;
}

/**
 * Result of a `cast*` query.
 * - `toi`: time of impact as a fraction of the step's motion, in [0, 1]; 0 = touching at the start.
 * - `normal`: unit contact normal at the moment of impact, from the second shape toward the first.
 * - `point`: the contact point on the second shape's surface at the moment of impact.
 */
export interface CastResult {
  toi: number;
  normal: Vec3;
  point: Vec3;
}
