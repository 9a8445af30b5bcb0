/**
 * A 64-bit hash of the physics state, for desync detection between a server and its clients.
 * Covers the tick counter; in ascending entity id: the body kind flags, position, velocity (moving
 * bodies), radius or half extents and rotation, collision group and mask (bodies with a
 * CollisionFilter), response mode, restitution and mass (bodies with Response, so that a replica
 * that lost or changed a Response shows at once); then every contact of the last tick (pair,
 * normal, depth, point, toi, flags, which also reflect the previous tick's pairs through
 * BEGAN/PERSISTING). Values are hashed by their exact float64 bit patterns, so equal hashes mean
 * bit-identical state (up to hash collisions). Deterministic across runs, machines and JS engines: every word goes
 * through the two-lane mixer of `math/hashMixer` (seeds 0x12345678, 0x9abcdef0).
 * @module
 */
import { createHashLanes, finish, LANE1, LANE2, mixInt, seedHash } from '../math/hashMixer.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';
import { internalsOf } from '../physics/internal.js';

const { SPHERE, BOX, MOVING, SENSOR, FILTER, RESPONSE } = BodyFlags;
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const lanes = createHashLanes();

/** Mixes the float64 `a[i]` by its bit pattern (−0 and +0 alike). Reads the array, so no boxing. */
function mixFloat(a: ArrayLike<number>, i: number): void {
  f64[0] = a[i];
  if (f64[0] === 0) f64[0] = 0;
  mixInt(lanes, u32[0]);
  mixInt(lanes, u32[1]);
}

/** Mixes `x[i]`, `y[i]`, `z[i]` (a vector field) in that order. */
function mixFloat3(x: ArrayLike<number>, y: ArrayLike<number>, z: ArrayLike<number>, i: number): void {
  mixFloat(x, i);
  mixFloat(y, i);
  mixFloat(z, i);
}

function hex8(h: number): string {
  return h.toString(16).padStart(8, '0');
}

/** Returns the state hash as 16 hex digits. Allocates only the returned string. */
export function hashPhysicsState(physics: Physics): string {
  const { flags, maxEid } = internalsOf(physics);
  const { Position: p, Velocity: v, Sphere: s, Box: b, CollisionFilter: filter, Response: response } = physics.components;
  seedHash(lanes, 0x12345678, 0x9abcdef0);
  mixInt(lanes, physics.tick);
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid] & (SPHERE | BOX | MOVING | SENSOR | FILTER | RESPONSE);
    if ((f & (SPHERE | BOX)) === 0) continue;
    mixInt(lanes, eid);
    mixInt(lanes, f);
    mixFloat3(p.x, p.y, p.z, eid);
    if ((f & MOVING) !== 0) mixFloat3(v.x, v.y, v.z, eid);
    if ((f & FILTER) !== 0) {
      mixInt(lanes, filter.group[eid]);
      mixInt(lanes, filter.mask[eid]);
    }
    if ((f & RESPONSE) !== 0) {
      mixInt(lanes, response.mode[eid]);
      mixFloat(response.restitution, eid);
      mixFloat(response.mass, eid);
    }
    if ((f & SPHERE) !== 0) mixFloat(s.radius, eid);
    else {
      mixFloat3(b.hx, b.hy, b.hz, eid);
      mixFloat3(b.qx, b.qy, b.qz, eid);
      mixFloat(b.qw, eid);
    }
  }
  const c = physics.contacts;
  mixInt(lanes, c.count);
  for (let i = 0; i < c.count; i++) {
    mixInt(lanes, c.a[i]);
    mixInt(lanes, c.b[i]);
    mixFloat3(c.nx, c.ny, c.nz, i);
    mixFloat(c.depth, i);
    mixFloat3(c.px, c.py, c.pz, i);
    mixFloat(c.toi, i);
    mixInt(lanes, c.flags[i]);
  }
  return hex8(finish(lanes[LANE1])) + hex8(finish(lanes[LANE2] ^ lanes[LANE1]));
}
