/**
 * The rejection of a moving sphere's candidate box in the queries (findPairs.ts, continuous
 * contacts on the tested path: the midpoint of the path farther from the box than r + |m| / 2 plus
 * a slack) drops no contact: a tick's contacts are bit for bit those of the public
 * `contactSphereBox`, else `castSphereBox` along velocity × dt, for every sphere against every box
 * (an independent oracle), with paths that come within a few ulps of touching — on either side — a
 * face, an edge or a corner of rotated boxes at any moment of the tick, the midpoint included, and
 * paths that stay a little farther off. The test fails with the reach shortened by 1e-9 r or without
 * the half path.
 */
import { createWorld } from 'bitecs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addSphere, createPhysics, step } from '../../src/index.js';
import { internalsOf } from '../../src/physics/internal.js';
import { loadBox } from '../../src/physics/bodyReads.js';
import { ScratchBox } from '../../src/geometry/scratch.js';
import { addSpecBoxes, rows, sweptOracle } from '../support/contactOracles.js';

/** q v q* for a unit quaternion q = (x, y, z, w). */
function rotate(q: { x: number; y: number; z: number; w: number }, v: number[]): number[] {
  const { x, y, z, w } = q;
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

const unit = fc.double({ min: -1, max: 1, noNaN: true });
const side = fc.double({ min: 0.3, max: 2, noNaN: true });
/** Where on the box the path comes closest: -1 / 1 on a face's axis, a coordinate inside otherwise (faces, edges, corners). */
const coord = fc.oneof(fc.constantFrom(-1, 1), unit);

describe('swept candidates rejected in the queries', () => {
  it('drop no contact: paths within ulps of a face, edge or corner at any moment, and a little beyond', () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.tuple(unit, unit, unit), fc.tuple(side, side, side), fc.tuple(unit, unit, unit, unit)), { minLength: 1, maxLength: 3 }),
      fc.array(fc.record({
        k: fc.nat(2),
        at: fc.tuple(coord, coord, coord),
        out: fc.tuple(unit, unit, unit),
        r: fc.double({ min: 0.1, max: 1, noNaN: true }),
        // The gap at closest approach: a few ulps of r either side of touching, or a little more.
        ulps: fc.oneof(fc.integer({ min: -8, max: 8 }), fc.constantFrom(1e3, 1e6, 1e9, 1e11)),
        v: fc.tuple(unit, unit, unit),
        when: fc.constantFrom(0, 0.5, 1, 0.25, 0.8),
      }), { minLength: 1, maxLength: 30 }),
      (boxSpecs, sphereSpecs) => {
        const physics = createPhysics(createWorld(), { integrate: false, continuous: true });
        const boxes = addSpecBoxes(physics, boxSpecs);
        const box = new ScratchBox();
        const dt = physics.dt;
        const spheres = sphereSpecs.map(({ k, at, out, r, ulps, v, when }) => {
          loadBox(physics, boxes[k % boxes.length], box);
          const h = [box.halfExtents.x, box.halfExtents.y, box.halfExtents.z];
          // The closest point on the box (local), and an outward direction from it: along the axes
          // the point lies on a face of (±1), anything outward on those, nothing on the others.
          const local = at.map((u, i) => u * h[i]);
          let dir = at.map((u, i) => (u === 1 || u === -1 ? u * (0.2 + Math.abs(out[i])) : 0));
          if (dir.every((d) => d === 0)) {
            const i = [0, 1, 2].reduce((best, j) => (Math.abs(at[j]) > Math.abs(at[best]) ? j : best), 0);
            local[i] = (at[i] < 0 ? -1 : 1) * h[i];
            dir = [0, 0, 0];
            dir[i] = at[i] < 0 ? -1 : 1;
          }
          const len = Math.hypot(dir[0], dir[1], dir[2]);
          const gap = r * (1 + ulps * Number.EPSILON);
          const touchLocal = local.map((p, i) => p + (dir[i] / len) * gap);
          const t = rotate(box.rotation, touchLocal);
          const touch = [box.center.x + t[0], box.center.y + t[1], box.center.z + t[2]];
          // The path passes the touching pose at `when` of the tick, moving along the surface (the
          // velocity's outward part removed) so that it comes closest there.
          const n = rotate(box.rotation, dir.map((d) => d / len));
          const vn = v[0] * n[0] + v[1] * n[1] + v[2] * n[2];
          const velocity: [number, number, number] = [(v[0] - vn * n[0]) * 0.5 / dt, (v[1] - vn * n[1]) * 0.5 / dt, (v[2] - vn * n[2]) * 0.5 / dt];
          return addSphere(physics, {
            position: [touch[0] - when * velocity[0] * dt, touch[1] - when * velocity[1] * dt, touch[2] - when * velocity[2] * dt],
            radius: r, group: 2, mask: 1, velocity,
          });
        });
        step(physics);
        expect(internalsOf(physics).broadphase.tested).toBe(2);
        expect(rows(physics)).toEqual(sweptOracle(physics, spheres, boxes));
      },
    ), { numRuns: 300 });
  });
});
