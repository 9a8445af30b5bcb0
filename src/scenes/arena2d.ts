/**
 * The 2D arena: the arena of arena.ts in a plane, as the 2D peers (Rapier 2D, detect-collisions)
 * run it. A square of side L = 4·√N: N circles with radius uniform in [0.25, 1] and velocity
 * uniform in [−10, 10] per axis (length units per second), each reflecting its velocity when it
 * leaves [0, L]; M = N/10 fixed rectangles with half extents uniform in [0.5, 2], half axis-aligned
 * and half rotated by a uniform angle; dt = 1/60 s; all from a seeded PRNG.
 *
 * In 3D terms (the `ArenaSpec` it returns, which `buildArena` takes as `spec`): every centre and
 * velocity has z = 0, a circle is a sphere, a rectangle is a box of half depth 1 rotated about z.
 * A sphere centred in the plane z = 0 touches such a box exactly when the circle touches the
 * rectangle (the box's z slab contains the plane), so the contact sets are the 2D ones.
 */
import type { ArenaSpec } from './arena.js';
import { createRng } from './prng.js';

export interface Arena2dOptions {
  circles: number;
  /** Default circles / 10 (rounded down). */
  rectangles?: number;
  /** Side L of the square world; default 4·√circles. */
  size?: number;
  seed?: number;
}

/** Half depth (z) of every rectangle's box. */
export const RECT_HALF_DEPTH = 1;

export function arena2dSpec(options: Arena2dOptions): ArenaSpec {
  const n = options.circles;
  const m = options.rectangles ?? Math.floor(n / 10);
  const rng = createRng(options.seed ?? 1);
  const size = options.size ?? 4 * Math.sqrt(Math.max(n, 1));
  const spheres: ArenaSpec['spheres'] = [];
  const boxes: ArenaSpec['boxes'] = [];
  for (let i = 0; i < m; i++) {
    const position: [number, number, number] = [rng.range(0, size), rng.range(0, size), 0];
    const halfExtents: [number, number, number] = [rng.range(0.5, 2), rng.range(0.5, 2), RECT_HALF_DEPTH];
    let rotation: [number, number, number, number] = [0, 0, 0, 1];
    if (i % 2 === 1) {
      // A uniform angle about z by rejection from the square (no trigonometry): (c, s) on the unit
      // circle is the quaternion (0, 0, s, c), a rotation by twice its angle.
      for (;;) {
        const c = rng.range(-1, 1), s = rng.range(-1, 1);
        const n2 = c * c + s * s;
        if (n2 > 1e-4 && n2 <= 1) {
          const inv = 1 / Math.sqrt(n2);
          rotation = [0, 0, s * inv, c * inv];
          break;
        }
      }
    }
    boxes.push({ position, halfExtents, rotation });
  }
  for (let i = 0; i < n; i++) {
    spheres.push({
      position: [rng.range(0, size), rng.range(0, size), 0],
      velocity: [rng.range(-10, 10), rng.range(-10, 10), 0],
      radius: rng.range(0.25, 1),
    });
  }
  return { size, dt: 1 / 60, spheres, boxes };
}
