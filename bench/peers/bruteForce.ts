/**
 * Brute force: move the spheres, then test every sphere–box pair with the public
 * `contactSphereBox`. The oracle of the contact sets (O(N·M) per tick).
 */
import { contactSphereBox, type BoxShape, type ContactResult, type SphereShape } from '../../src/index.js';
import type { ArenaSpec } from '../../src/scenes/arena.js';
import { moveSpheres, sphereState, type Peer } from '../common.js';

export function createBruteForce(spec: ArenaSpec): Peer {
  const s = sphereState(spec);
  const boxes: BoxShape[] = spec.boxes.map((b) => ({
    center: { x: b.position[0], y: b.position[1], z: b.position[2] },
    halfExtents: { x: b.halfExtents[0], y: b.halfExtents[1], z: b.halfExtents[2] },
    rotation: { x: b.rotation[0], y: b.rotation[1], z: b.rotation[2], w: b.rotation[3] },
  }));
  const m = boxes.length;
  const sphere: SphereShape = { center: { x: 0, y: 0, z: 0 }, radius: 0 };
  const out: ContactResult = { normal: { x: 0, y: 0, z: 0 }, depth: 0, point: { x: 0, y: 0, z: 0 } };
  let count = 0;
  let record: number[] | null = null;
  let last: number[] = [];
  const detect = () => {
    count = 0;
    for (let i = 0; i < s.n; i++) {
      sphere.center.x = s.px[i];
      sphere.center.y = s.py[i];
      sphere.center.z = s.pz[i];
      sphere.radius = s.r[i];
      for (let j = 0; j < m; j++) {
        if (contactSphereBox(sphere, boxes[j], out)) {
          count++;
          if (record) record.push(i * m + j);
        }
      }
    }
  };
  return {
    id: 'brute-force',
    bodies: s.n + m,
    lag: 0,
    tick() {
      moveSpheres(s);
      detect();
    },
    contacts: () => count,
    pairs(dst) {
      // Recompute the last tick's pairs at the current pose (the timed tick records nothing).
      record = last;
      last.length = 0;
      detect();
      record = null;
      for (const k of last) dst.push(k);
    },
    free() {
      last = [];
    },
  };
}
