/**
 * A 64-bit hash of the physics state, for desync detection between a server and its clients.
 * Covers the tick counter; in ascending entity id: the body kind flags, position, velocity (moving
 * bodies), radius or half extents and rotation, collision group and mask (bodies with a
 * CollisionFilter), response mode, restitution and mass (bodies with Response, so that a replica
 * that lost or changed a Response shows at once), and its damping and gravity scale when not the
 * defaults (0 and 1: a world that never sets them hashes as before they existed), the Character
 * settings and outputs (characters: maxSlope, stepHeight, snapDistance, up, gravityScale, mass,
 * grounded, ground, ground normal), friction (bodies with Material), the sleep state (asleep,
 * seconds below the sleep speed) when not zero, the jam mark (response/jam.ts) when set; then every contact of the last tick (pair,
 * normal, depth, point, toi, flags, which also reflect the previous tick's pairs through
 * BEGAN/PERSISTING). Values are hashed by their exact float64 bit patterns, so equal hashes mean
 * bit-identical state (up to hash collisions). Deterministic across runs, machines and JS engines: every word goes
 * through the two-lane mixer of `math/hashMixer` (seeds 0x12345678, 0x9abcdef0; its `mixInt` and
 * `finish` are written out here, see below).
 *
 * Two forms of the same hash:
 * - `hashPhysicsStateWords(physics, out, offset)` writes it as two uint32 words into the caller's
 *   array and allocates nothing (for a server that hashes every tick);
 * - `hashPhysicsState(physics)` returns it as 16 hex digits (the first 8 are the first word),
 *   allocating only that string.
 *
 * Allocation-free: no float is passed as an argument or returned (docs/internals.md, the idiom's
 * first rule); each is read from its store column straight into a scratch Float64Array (`mixAt`)
 * and mixed from there by its two 32-bit words; integers cross calls as int32 (`| 0`). Measured by
 * test/determinism/hashAllocation.test.ts, also with a game's own Position (plain arrays) and
 * Velocity (Float32Array) stores.
 * @module
 */
import type { CharacterComponent, Vec3Store } from '../../components/index.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';
import { internalsOf } from '../physics/internal.js';

const { SPHERE, BOX, MOVING, SENSOR, FILTER, RESPONSE, CHARACTER } = BodyFlags;
/** The float being mixed, and its two 32-bit words. */
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
/** The two lanes h1, h2 of the hash in progress. */
const lanes = new Int32Array(2);
/** The state hash's words, for `hashPhysicsState`. */
const words = new Uint32Array(2);

const M1 = 0x9e3779b1;
const M2 = 0x85ebca77;

/** Mixes the 32-bit word `v` (an int32) into both lanes: `mixInt` of math/hashMixer. */
function mixI(v: number): void {
  let h1 = Math.imul(lanes[0] ^ v, M1);
  h1 = (h1 << 13) | (h1 >>> 19);
  let h2 = Math.imul(lanes[1] ^ v, M2);
  h2 = (h2 << 17) | (h2 >>> 15);
  lanes[0] = h1;
  lanes[1] = (h2 + h1) | 0;
}

/** Mixes `column[i]` (a store column: typed, or a game's own array) by `mixF`; the value travels in `f64`, never as a double argument. */
function mixAt(column: Vec3Store['x'], i: number): void {
  f64[0] = column[i];
  mixF();
}

/** Mixes `x[i]`, `y[i]`, `z[i]` (`mixAt` of each, in that order). */
/** Mixes character `eid`'s settings and outputs (the Character component). */
function mixCharacter(c: CharacterComponent, eid: number): void {
  mixAt(c.maxSlope, eid);
  mixAt(c.stepHeight, eid);
  mixAt(c.snapDistance, eid);
  mix3(c.upX, c.upY, c.upZ, eid);
  mixAt(c.gravityScale, eid);
  mixAt(c.mass, eid);
  mixI(c.grounded[eid]);
  mixI(c.groundEid[eid] | 0);
  mix3(c.nx, c.ny, c.nz, eid);
}

function mix3(x: Vec3Store['x'], y: Vec3Store['x'], z: Vec3Store['x'], i: number): void {
  mixAt(x, i);
  mixAt(y, i);
  mixAt(z, i);
}

/** Mixes the float64 in `f64[0]` by its bit pattern, low word first (−0 and +0 alike). */
function mixF(): void {
  if (f64[0] === 0) f64[0] = 0;
  let h1 = Math.imul(lanes[0] ^ u32[0], M1);
  h1 = (h1 << 13) | (h1 >>> 19);
  let h2 = Math.imul(lanes[1] ^ u32[0], M2);
  h2 = (h2 << 17) | (h2 >>> 15);
  h2 = (h2 + h1) | 0;
  let g1 = Math.imul(h1 ^ u32[1], M1);
  g1 = (g1 << 13) | (g1 >>> 19);
  let g2 = Math.imul(h2 ^ u32[1], M2);
  g2 = (g2 << 17) | (g2 >>> 15);
  lanes[0] = g1;
  lanes[1] = (g2 + g1) | 0;
}

/**
 * Writes the state hash as two uint32 words: `out[offset]` (the first 8 hex digits of
 * `hashPhysicsState`) and `out[offset + 1]` (the last 8). Allocates nothing.
 */
export function hashPhysicsStateWords(physics: Physics, out: Uint32Array, offset = 0): void {
  const { flags, maxEid, sleep, hasMaterial, response: rs } = internalsOf(physics);
  const jam = rs === null ? null : rs.jam;
  const { Position: p, Velocity: v, Sphere: s, Box: b, CollisionFilter: filter, Response: response, Character: character, Material: material } = physics.components;
  lanes[0] = 0x12345678;
  lanes[1] = 0x9abcdef0;
  mixI(physics.tick | 0);
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid] & (SPHERE | BOX | MOVING | SENSOR | FILTER | RESPONSE | CHARACTER);
    if ((f & (SPHERE | BOX)) === 0) continue;
    mixI(eid | 0);
    mixI(f);
    mix3(p.x, p.y, p.z, eid);
    if ((f & MOVING) !== 0) mix3(v.x, v.y, v.z, eid);
    if ((f & FILTER) !== 0) {
      mixI(filter.group[eid] | 0);
      mixI(filter.mask[eid] | 0);
    }
    if ((f & RESPONSE) !== 0) {
      mixI(response.mode[eid]);
      mixAt(response.restitution, eid);
      mixAt(response.mass, eid);
      if (response.damping[eid] !== 0 || response.gravityScale[eid] !== 1) {
        mixI(1);
        mixAt(response.damping, eid);
        mixAt(response.gravityScale, eid);
      }
      if (jam !== null && eid < jam.length && jam[eid] !== 0) mixI(5);
    }
    if (hasMaterial[eid] !== 0) {
      mixI(4);
      mixAt(material.friction, eid);
    }
    if (sleep !== null && (sleep.asleep[eid] !== 0 || sleep.slow[eid] !== 0)) {
      mixI(2 + sleep.asleep[eid]);
      mixAt(sleep.slow, eid);
    }
    if ((f & CHARACTER) !== 0) mixCharacter(character, eid);
    if ((f & SPHERE) !== 0) {
      mixAt(s.radius, eid);
    } else {
      mix3(b.hx, b.hy, b.hz, eid);
      mix3(b.qx, b.qy, b.qz, eid);
      mixAt(b.qw, eid);
    }
  }
  const c = physics.contacts;
  mixI(c.count | 0);
  for (let i = 0; i < c.count; i++) {
    mixI(c.a[i] | 0);
    mixI(c.b[i] | 0);
    mix3(c.nx, c.ny, c.nz, i);
    mixAt(c.depth, i);
    mix3(c.px, c.py, c.pz, i);
    mixAt(c.toi, i);
    mixI(c.flags[i]);
  }
  finishInto(lanes[0], out, offset);
  finishInto(lanes[1] ^ lanes[0], out, offset + 1);
}

/** Writes MurmurHash3's fmix32 of `h` (`finish` of math/hashMixer) to `out[at]`: no uint32 is returned (it could be boxed). */
function finishInto(h: number, out: Uint32Array, at: number): void {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  out[at] = h;
}

function hex8(h: number): string {
  return h.toString(16).padStart(8, '0');
}

/**
 * Returns the state hash as 16 hex digits (`hashPhysicsStateWords`'s two words, first word first).
 * Allocates only the returned string; a caller that hashes every tick and compares hashes can use
 * `hashPhysicsStateWords` instead, which allocates nothing.
 */
export function hashPhysicsState(physics: Physics): string {
  hashPhysicsStateWords(physics, words, 0);
  return hex8(words[0]) + hex8(words[1]);
}
