/**
 * Oracles of the tested contacts (test/step): the contact list as rows, and every sphere against
 * every box through the public `contactSphereBox` (static contacts) or `contactSphereBox`, else
 * `castSphereBox` along velocity × dt (continuous contacts), in (a, b) order — independent of the
 * broadphase's own tests.
 */
import { addBox, castSphereBox, contactSphereBox, type Physics } from '../../src/index.js';
import { loadBox } from '../../src/physics/bodyReads.js';
import { ScratchBox, ScratchCast, ScratchContact } from '../../src/geometry/scratch.js';

/** A box of the properties: centre offset, half extents, rotation (any quaternion, all 0 taken as identity). */
export type BoxSpec = [number[], number[], number[]];

/** Adds the boxes of `specs`, the i-th 8 i along x from the origin; returns their entities. */
export function addSpecBoxes(physics: Physics, specs: BoxSpec[]): number[] {
  return specs.map(([c, h, q], i) => addBox(physics, {
    position: [8 * i + c[0], c[1], c[2]], halfExtents: [h[0], h[1], h[2]],
    rotation: [q[0], q[1], q[2], q[3] === 0 && q[0] === 0 && q[1] === 0 && q[2] === 0 ? 1 : q[3]],
  }));
}

/** One contact: pair, normal, depth, point and time of impact. */
export interface Row { a: number; b: number; n: number[]; depth: number; p: number[]; toi: number }

/** The contacts of `physics.contacts` as rows, in list order. */
export function rows(physics: Physics): Row[] {
  const c = physics.contacts;
  const out: Row[] = [];
  for (let i = 0; i < c.count; i++) {
    out.push({ a: c.a[i], b: c.b[i], n: [c.nx[i], c.ny[i], c.nz[i]], depth: c.depth[i], p: [c.px[i], c.py[i], c.pz[i]], toi: c.toi[i] });
  }
  return out;
}

/** Every sphere against every box through the public contactSphereBox, in (a, b) order. */
export function staticOracle(physics: Physics, spheres: number[], boxes: number[]): Row[] {
  const out: Row[] = [];
  const box = new ScratchBox();
  const hit = new ScratchContact();
  const P = physics.components.Position, R = physics.components.Sphere.radius;
  for (const a of [...spheres].sort((x, y) => x - y)) {
    for (const b of [...boxes].sort((x, y) => x - y)) {
      loadBox(physics, b, box);
      const sphere = { center: { x: P.x[a], y: P.y[a], z: P.z[a] }, radius: R[a] };
      if (!contactSphereBox(sphere, box, hit)) continue;
      out.push({ a, b, n: [hit.normal.x, hit.normal.y, hit.normal.z], depth: hit.depth, p: [hit.point.x, hit.point.y, hit.point.z], toi: 0 });
    }
  }
  return out;
}

/**
 * Every moving sphere against every box over the tick through the public contactSphereBox, else
 * castSphereBox along velocity × dt, in (a, b) order.
 */
export function sweptOracle(physics: Physics, spheres: number[], boxes: number[]): Row[] {
  const out: Row[] = [];
  const box = new ScratchBox();
  const hit = new ScratchContact();
  const cast = new ScratchCast();
  const P = physics.components.Position, V = physics.components.Velocity, R = physics.components.Sphere.radius;
  const dt = physics.dt;
  for (const a of [...spheres].sort((x, y) => x - y)) {
    for (const b of [...boxes].sort((x, y) => x - y)) {
      loadBox(physics, b, box);
      const sphere = { center: { x: P.x[a], y: P.y[a], z: P.z[a] }, radius: R[a] };
      const m = { x: V.x[a] * dt, y: V.y[a] * dt, z: V.z[a] * dt };
      if (contactSphereBox(sphere, box, hit)) {
        out.push({ a, b, n: [hit.normal.x, hit.normal.y, hit.normal.z], depth: hit.depth, p: [hit.point.x, hit.point.y, hit.point.z], toi: 0 });
      } else if ((m.x !== 0 || m.y !== 0 || m.z !== 0) && castSphereBox(sphere, m, box, cast)) {
        out.push({ a, b, n: [cast.normal.x, cast.normal.y, cast.normal.z], depth: 0, p: [cast.point.x + 0, cast.point.y + 0, cast.point.z + 0], toi: cast.toi });
      }
    }
  }
  return out;
}
