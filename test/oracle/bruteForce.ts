/**
 * Brute-force reference for the ECS pipeline: the contact list a physics instance must produce for
 * one tick, computed from the bitecs world alone.
 *
 * Independent of the pipeline's own machinery:
 *  - bodies are found with bitecs queries (`[Position, Sphere]`, `[Position, Box]`) and `hasComponent`,
 *    not with the physics instance's flag bytes, maxEid, grids or candidate-pair lists;
 *  - every sphere–box and sphere–sphere pair is tested, and every box–box pair where at least one of
 *    the two boxes has a Velocity component (O(n²), no broadphase; `a` the lower id);
 *  - filters are read from the CollisionFilter component when present, else the documented defaults
 *    (group 1, mask 0xffffffff);
 *  - began/persisting/ended are tracked here from our own observers of body removal.
 * What it shares with the pipeline on purpose is the geometry (the public contact/cast functions),
 * so the floats of a correct pipeline match exactly. Two arithmetic choices follow the pipeline so
 * that they do (see `bruteForceContacts`): the relative motion is `vA·dt − vB·dt` (per-body
 * displacement, i.e. what integration applies) rather than `(vA − vB)·dt`, and a non-unit stored
 * quaternion is normalised as `q · (1/√|q|²)` (the stored rotation is used unchanged when |q|² is
 * exactly 1).
 */
import { hasComponent, observe, onRemove, query, type World } from 'bitecs';
import {
  castBoxBox,
  castSphereBox,
  castSphereSphere,
  ContactFlags,
  contactBoxBox,
  contactSphereBox,
  contactSphereSphere,
  EndedFlags,
  type BoxShape,
  type CastResult,
  type ContactResult,
  type Physics,
  type SphereShape,
  type Vec3,
} from '../../src/index.js';

/** The float fields of a contact: normal, depth, point and time of impact (in [0, 1]). */
export interface ContactGeometry {
  nx: number;
  ny: number;
  nz: number;
  depth: number;
  px: number;
  py: number;
  pz: number;
  toi: number;
}

export interface ExpectedContact extends ContactGeometry {
  a: number;
  b: number;
  flags: number;
}

export interface ExpectedTick {
  contacts: ExpectedContact[];
  began: [number, number][];
  ended: [number, number][];
  /** Per ended pair: `EndedFlags.REMOVED` when one of its bodies was removed, else 0. */
  endedFlags: number[];
}

/** The read-only view of a physics instance that the oracle needs: the world, stores and options. */
type PhysicsView = Pick<Physics, 'world' | 'components' | 'dt' | 'continuous'>;

const DEFAULT_GROUP = 1;
const DEFAULT_MASK = 0xffffffff;

function filterOf(p: PhysicsView, eid: number): [number, number] {
  const F = p.components.CollisionFilter;
  if (hasComponent(p.world, eid, F)) return [F.group[eid] >>> 0, F.mask[eid] >>> 0];
  return [DEFAULT_GROUP, DEFAULT_MASK];
}

function sphereOf(p: PhysicsView, eid: number): SphereShape {
  const P = p.components.Position;
  return { center: { x: P.x[eid], y: P.y[eid], z: P.z[eid] }, radius: p.components.Sphere.radius[eid] };
}

function boxOf(p: PhysicsView, eid: number): BoxShape {
  const P = p.components.Position;
  const B = p.components.Box;
  let qx = B.qx[eid], qy = B.qy[eid], qz = B.qz[eid], qw = B.qw[eid];
  const n2 = qx * qx + qy * qy + qz * qz + qw * qw;
  if (n2 !== 1) {
    const inv = 1 / Math.sqrt(n2);
    qx *= inv;
    qy *= inv;
    qz *= inv;
    qw *= inv;
  }
  return {
    center: { x: P.x[eid], y: P.y[eid], z: P.z[eid] },
    halfExtents: { x: B.hx[eid], y: B.hy[eid], z: B.hz[eid] },
    rotation: { x: qx, y: qy, z: qz, w: qw },
  };
}

/** A body's displacement over the tick: velocity × dt with continuous contacts on, else 0. */
function motionOf(p: PhysicsView, eid: number): Vec3 {
  const V = p.components.Velocity;
  if (!p.continuous || !hasComponent(p.world, eid, V)) return { x: 0, y: 0, z: 0 };
  return { x: V.x[eid] * p.dt, y: V.y[eid] * p.dt, z: V.z[eid] * p.dt };
}

/** Ascending ids of the entities that have every listed component. */
function bodies(world: World, terms: object[]): number[] {
  return Array.from(query(world, terms)).sort((x, y) => x - y);
}

/** The contact of a pair as the list holds it: the static contact, or the cast's with its point moved with b to the time of impact. */
function listed(
  p: PhysicsView, a: number, b: number, swept: boolean, contact: ContactResult, cast: CastResult, mB: Vec3,
): ExpectedContact {
  const { world, components: c } = p;
  const r = swept ? cast : contact;
  const toi = swept ? cast.toi : 0;
  const sensor = hasComponent(world, a, c.Sensor) || hasComponent(world, b, c.Sensor);
  return {
    a,
    b,
    nx: r.normal.x,
    ny: r.normal.y,
    nz: r.normal.z,
    depth: swept ? 0 : contact.depth,
    px: r.point.x + toi * mB.x,
    py: r.point.y + toi * mB.y,
    pz: r.point.z + toi * mB.z,
    toi,
    flags: sensor ? ContactFlags.SENSOR : 0,
  };
}

/**
 * Box–box contacts: every pair of boxes (a < b) of which at least one has a Velocity component,
 * filters both ways; the static contact, else the cast with the relative motion.
 */
function boxBoxContacts(p: PhysicsView, boxes: number[], contact: ContactResult, cast: CastResult): ExpectedContact[] {
  const { world, components: c } = p;
  const out: ExpectedContact[] = [];
  for (const a of boxes) {
    for (const b of boxes) {
      if (b <= a) continue;
      if (!hasComponent(world, a, c.Velocity) && !hasComponent(world, b, c.Velocity)) continue;
      const [ga, ma] = filterOf(p, a);
      const [gb, mb] = filterOf(p, b);
      if ((ga & mb) === 0 || (gb & ma) === 0) continue;
      const mA = motionOf(p, a);
      const mB = motionOf(p, b);
      const rel = { x: mA.x - mB.x, y: mA.y - mB.y, z: mA.z - mB.z };
      const ba = boxOf(p, a);
      const bb = boxOf(p, b);
      let swept = false;
      let hit = contactBoxBox(ba, bb, contact);
      if (!hit && (rel.x !== 0 || rel.y !== 0 || rel.z !== 0)) swept = hit = castBoxBox(ba, rel, bb, cast);
      if (hit) out.push(listed(p, a, b, swept, contact, cast, mB));
    }
  }
  return out;
}

/**
 * The contacts of the coming tick for the current state of the world, sorted by (a, b), with the
 * SENSOR flag only (BEGAN/PERSISTING come from a `BruteForceTracker`).
 */
export function bruteForceContacts(p: PhysicsView): ExpectedContact[] {
  const { world, components: c } = p;
  const spheres = bodies(world, [c.Position, c.Sphere]);
  const boxes = bodies(world, [c.Position, c.Box]).filter((e) => !hasComponent(world, e, c.Sphere));
  const out: ExpectedContact[] = [];
  const contact: ContactResult = { normal: { x: 0, y: 0, z: 0 }, depth: 0, point: { x: 0, y: 0, z: 0 } };
  const cast: CastResult = { toi: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };
  for (const a of spheres) {
    const [ga, ma] = filterOf(p, a);
    const sa = sphereOf(p, a);
    const mA = motionOf(p, a);
    const others = [...spheres.filter((b) => b > a), ...boxes].sort((x, y) => x - y);
    for (const b of others) {
      const [gb, mb] = filterOf(p, b);
      if ((ga & mb) === 0 || (gb & ma) === 0) continue;
      const mB = motionOf(p, b);
      const rel = { x: mA.x - mB.x, y: mA.y - mB.y, z: mA.z - mB.z };
      const moving = rel.x !== 0 || rel.y !== 0 || rel.z !== 0;
      const isSphere = hasComponent(world, b, c.Sphere);
      let hit = false;
      let swept = false;
      if (isSphere) {
        const sb = sphereOf(p, b);
        hit = contactSphereSphere(sa, sb, contact);
        if (!hit && moving) swept = hit = castSphereSphere(sa, rel, sb, cast);
      } else {
        const bb = boxOf(p, b);
        hit = contactSphereBox(sa, bb, contact);
        if (!hit && moving) swept = hit = castSphereBox(sa, rel, bb, cast);
      }
      if (hit) out.push(listed(p, a, b, swept, contact, cast, mB));
    }
  }
  out.push(...boxBoxContacts(p, boxes, contact, cast));
  // A sphere pair's a is a sphere, a box pair's a box: (a, b) keys are distinct.
  return out.sort((x, y) => x.a - y.a || x.b - y.b);
}

/**
 * Tracks the previous tick's touching pairs of one physics instance to derive BEGAN / PERSISTING and
 * the began/ended lists. A body that stops being a body (entity removed, or its shape removed) has
 * its pairs moved at once from the previous ones to the removed ones: reported as ended (REMOVED) at
 * the next tick, and a recycled id starts afresh.
 */
export interface BruteForceTracker {
  /** Expected result of the next `step` for the current world state; commits it as the previous. */
  next(): ExpectedTick;
  /** Stops observing the world. */
  dispose(): void;
}

export function createBruteForceTracker(p: PhysicsView): BruteForceTracker {
  const { world, components: c } = p;
  let previous = new Set<string>();
  const removed = new Set<string>();
  const key = (a: number, b: number) => `${a},${b}`;
  const forget = (eid: number) => {
    for (const k of [...previous]) {
      const [a, b] = k.split(',').map(Number);
      if (a === eid || b === eid) {
        previous.delete(k);
        removed.add(k);
      }
    }
  };
  const offs = [observe(world, onRemove(c.Position, c.Sphere), forget), observe(world, onRemove(c.Position, c.Box), forget)];
  return {
    next(): ExpectedTick {
      const contacts = bruteForceContacts(p);
      const began: [number, number][] = [];
      const now = new Set<string>();
      for (const k of contacts) {
        const id = key(k.a, k.b);
        now.add(id);
        if (previous.has(id)) k.flags |= ContactFlags.PERSISTING;
        else {
          k.flags |= ContactFlags.BEGAN;
          began.push([k.a, k.b]);
        }
      }
      const ends = [
        ...[...previous].filter((k) => !now.has(k)).map((k) => [...k.split(',').map(Number), 0]),
        ...[...removed].map((k) => [...k.split(',').map(Number), EndedFlags.REMOVED]),
      ].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
      previous = now;
      removed.clear();
      return { contacts, began, ended: ends.map(([a, b]) => [a, b] as [number, number]), endedFlags: ends.map((e) => e[2]) };
    },
    dispose() {
      for (const off of offs) off();
    },
  };
}

/** The Contact component data an entity must hold for a tick's contact list (normal toward the entity). */
export interface ExpectedContactComponent extends ContactGeometry {
  other: number;
  count: number;
}

/**
 * Per entity: its primary contact (earliest toi, then deepest, then first in (a, b) order) and its
 * number of contacts. The normal points toward the entity (negated for the pair's second body b).
 * Values are float64 here; callers round with `Math.fround` for the float32 fields.
 *
 * `compare`: 'float64' (default) ranks by the list's float64 toi and depth, as the spec states;
 * 'float32' ranks by the values rounded to float32 (what the pipeline did up to commit 36122c1: see
 * the regression tests "regression: Contact primary …"), for diagnosing that difference.
 */
export function expectedContactComponents(
  contacts: ExpectedContact[], compare: 'float64' | 'float32' = 'float64',
): Map<number, ExpectedContactComponent> {
  const out = new Map<number, ExpectedContactComponent>();
  const r = compare === 'float32' ? Math.fround : (v: number) => v;
  const offer = (eid: number, other: number, k: ExpectedContact, sign: number) => {
    const cur = out.get(eid);
    if (cur) {
      cur.count++;
      if (r(k.toi) > r(cur.toi) || (r(k.toi) === r(cur.toi) && r(k.depth) <= r(cur.depth))) return;
    }
    out.set(eid, {
      other,
      nx: sign * k.nx,
      ny: sign * k.ny,
      nz: sign * k.nz,
      depth: k.depth,
      px: k.px,
      py: k.py,
      pz: k.pz,
      toi: k.toi,
      count: cur ? cur.count : 1,
    });
  };
  for (const k of contacts) {
    offer(k.a, k.b, k, 1);
    offer(k.b, k.a, k, -1);
  }
  return out;
}
