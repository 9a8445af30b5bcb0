/**
 * A 64-bit hash of the physics state, for desync detection between a server and its clients.
 * Covers the tick counter; in ascending entity id: the body kind flags, position, velocity (moving
 * bodies), radius or half extents and rotation, collision group and mask (bodies with a
 * CollisionFilter); then every contact of the last tick (pair, normal, depth, point, toi, flags,
 * which also reflect the previous tick's pairs through BEGAN/PERSISTING). Values are hashed by their exact float64 bit patterns, so equal hashes mean bit-identical
 * state (up to hash collisions). Deterministic across runs, machines and JS engines.
 * @module
 */
import { BodyFlags, type Physics } from './types.js';
import { internalsOf } from './internal.js';

const { SPHERE, BOX, MOVING, SENSOR, FILTER } = BodyFlags;
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

let h1 = 0;
let h2 = 0;

function mixInt(v: number): void {
  h1 = Math.imul(h1 ^ v, 0x9e3779b1);
  h1 = (h1 << 13) | (h1 >>> 19);
  h2 = Math.imul(h2 ^ v, 0x85ebca77);
  h2 = (h2 << 17) | (h2 >>> 15);
  h2 = (h2 + h1) | 0;
}

/** Mixes the float64 `a[i]` by its bit pattern (−0 and +0 alike). Reads the array, so no boxing. */
function mixFloat(a: ArrayLike<number>, i: number): void {
  f64[0] = a[i];
  if (f64[0] === 0) f64[0] = 0;
  mixInt(u32[0]);
  mixInt(u32[1]);
}

function finish(h: number): string {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** Returns the state hash as 16 hex digits. Allocates only the returned string. */
export function hashPhysicsState(physics: Physics): string {
  const { flags, maxEid } = internalsOf(physics);
  const { Position: p, Velocity: v, Sphere: s, Box: b, CollisionFilter: filter } = physics.components;
  h1 = 0x12345678;
  h2 = 0x9abcdef0;
  mixInt(physics.tick);
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid] & (SPHERE | BOX | MOVING | SENSOR | FILTER);
    if ((f & (SPHERE | BOX)) === 0) continue;
    mixInt(eid);
    mixInt(f);
    mixFloat(p.x, eid);
    mixFloat(p.y, eid);
    mixFloat(p.z, eid);
    if ((f & MOVING) !== 0) {
      mixFloat(v.x, eid);
      mixFloat(v.y, eid);
      mixFloat(v.z, eid);
    }
    if ((f & FILTER) !== 0) {
      mixInt(filter.group[eid]);
      mixInt(filter.mask[eid]);
    }
    if ((f & SPHERE) !== 0) mixFloat(s.radius, eid);
    else {
      mixFloat(b.hx, eid);
      mixFloat(b.hy, eid);
      mixFloat(b.hz, eid);
      mixFloat(b.qx, eid);
      mixFloat(b.qy, eid);
      mixFloat(b.qz, eid);
      mixFloat(b.qw, eid);
    }
  }
  const c = physics.contacts;
  mixInt(c.count);
  for (let i = 0; i < c.count; i++) {
    mixInt(c.a[i]);
    mixInt(c.b[i]);
    mixFloat(c.nx, i);
    mixFloat(c.ny, i);
    mixFloat(c.nz, i);
    mixFloat(c.depth, i);
    mixFloat(c.px, i);
    mixFloat(c.py, i);
    mixFloat(c.pz, i);
    mixFloat(c.toi, i);
    mixInt(c.flags[i]);
  }
  return finish(h1) + finish(h2 ^ h1);
}
