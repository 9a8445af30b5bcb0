/**
 * Scratch objects for the geometry structs, as class instances. V8 gives each class its own hidden
 * class, so their number fields stay unboxed doubles (writes allocate nothing) whatever other
 * `{x, y, z}`-shaped objects a program creates (an object literal of the same shape holding arrays or
 * strings would otherwise turn the shared fields into boxed ones). Every field is initialised with a
 * non-integer double: a field that starts as `undefined` (a bare `x: number;` declaration under
 * define semantics) or as an object stays tagged, and then every double written to it is boxed.
 */
import type { BoxShape, CastResult, ContactResult, Quat, SphereShape, Vec3 } from './types.js';

/** A Vec3 whose fields are doubles from the start (its values are scratch: set before use). */
export class ScratchVec3 implements Vec3 {
  x = 0.5;
  y = 0.5;
  z = 0.5;
}

/** A Quat whose fields are doubles from the start (scratch: set before use). */
export class ScratchQuat implements Quat {
  x = 0.5;
  y = 0.5;
  z = 0.5;
  w = 0.5;
}

export class ScratchSphere implements SphereShape {
  center = new ScratchVec3();
  radius = 0.5;
}

export class ScratchBox implements BoxShape {
  center = new ScratchVec3();
  halfExtents = new ScratchVec3();
  rotation = new ScratchQuat();
}

export class ScratchContact implements ContactResult {
  normal = new ScratchVec3();
  depth = 0.5;
  point = new ScratchVec3();
}

export class ScratchCast implements CastResult {
  toi = 0.5;
  normal = new ScratchVec3();
  point = new ScratchVec3();
}
