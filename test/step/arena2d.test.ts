/**
 * The 2D arena (src/scenes/arena2d.ts) through the 3D path at z = 0: every tick's contacts are the
 * circle–rectangle contacts of an independent 2D brute force (the rectangle's frame from its
 * rotation angle's cosine and sine, clamped, squared distance ≤ r²), and the broadphase's work
 * stays one static cell per circle and about one entry per circle (counted, not timed).
 */
import { describe, expect, it } from 'vitest';
import { arena2dSpec, RECT_HALF_DEPTH } from '../../src/scenes/arena2d.js';
import { buildArena } from '../../src/scenes/buildArena.js';
import { internalsOf } from '../../src/physics/internal.js';
import { WORK_CELLS_VISITED, WORK_ITEMS_VISITED, WORK_QUERIES } from '../../src/step/broadphaseState.js';

/** Sorted "circle:rectangle" keys of the touching pairs, in 2D. */
function brute2d(px: ArrayLike<number>, py: ArrayLike<number>, r: ArrayLike<number>, ids: Uint32Array, boxes: ReturnType<typeof arena2dSpec>['boxes'], boxIds: Uint32Array): string[] {
  const out: string[] = [];
  for (let i = 0; i < ids.length; i++) {
    const e = ids[i];
    boxes.forEach((b, j) => {
      // (0, 0, s, c) turns by twice the angle whose cosine and sine are (c, s).
      const [, , s, c] = b.rotation;
      const cos = c * c - s * s, sin = 2 * s * c;
      const dx = px[e] - b.position[0], dy = py[e] - b.position[1];
      const lx = cos * dx + sin * dy, ly = -sin * dx + cos * dy;
      const ox = Math.max(Math.abs(lx) - b.halfExtents[0], 0), oy = Math.max(Math.abs(ly) - b.halfExtents[1], 0);
      if (ox * ox + oy * oy <= r[e] * r[e]) out.push(`${e}:${boxIds[j]}`);
    });
  }
  return out.sort();
}

describe('the 2D arena through the 3D path', () => {
  it('gives the 2D brute force\'s contacts at every tick, one cell per circle', () => {
    const n = 1500;
    const spec = arena2dSpec({ circles: n, seed: 7 });
    expect(spec.boxes.every((b) => b.position[2] === 0 && b.halfExtents[2] === RECT_HALF_DEPTH && b.rotation[0] === 0 && b.rotation[1] === 0)).toBe(true);
    expect(spec.spheres.every((s) => s.position[2] === 0 && s.velocity[2] === 0)).toBe(true);
    const arena = buildArena({ spheres: n, spec, physics: { continuous: false } });
    const { Position: p, Sphere } = arena.physics.components;
    let touching = 0;
    for (let t = 0; t < 8; t++) {
      // Contacts describe the pose at the tick's start: take the brute force before stepping.
      const expected = brute2d(p.x, p.y, Sphere.radius, arena.sphereIds, spec.boxes, arena.boxIds);
      arena.tick();
      const c = arena.physics.contacts;
      const got: string[] = [];
      for (let i = 0; i < c.count; i++) got.push(`${c.a[i]}:${c.b[i]}`);
      expect(got.sort()).toEqual(expected);
      touching += expected.length;
      const work = internalsOf(arena.physics).broadphase.work;
      expect(work[WORK_QUERIES]).toBe(n);
      expect(work[WORK_CELLS_VISITED]).toBe(n);
      expect(work[WORK_ITEMS_VISITED]).toBeLessThan(2 * n);
    }
    expect(touching).toBeGreaterThan(8 * 50);
  });
});
