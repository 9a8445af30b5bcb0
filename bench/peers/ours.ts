/**
 * Ours: `buildArena` (spheres in group 2 / mask 1, so only sphere–box pairs) and its `tick()`:
 * `step` (broadphase → narrowphase at the tick's start pose → integrate) then wall reflection.
 * Its contacts after tick k+1 are therefore those of the pose the peers reach after tick k
 * (`lag: 1`; the harness drops our first tick when comparing contact sets).
 */
import { buildArena } from '../../src/scenes/buildArena.js';
import type { Peer } from '../common.js';
import { internalsOf } from '../../src/physics/internal.js';

/** Sum of the byte lengths of every distinct typed array reachable from `root`. */
export function typedArrayBytes(root: unknown, seen = new Set<ArrayBufferLike>()): number {
  let total = 0;
  const visit = (v: unknown, depth: number): void => {
    if (v === null || typeof v !== 'object' || depth > 6) return;
    if (ArrayBuffer.isView(v)) {
      if (!seen.has(v.buffer)) {
        seen.add(v.buffer);
        total += v.buffer.byteLength;
      }
      return;
    }
    for (const k of Object.keys(v)) {
      if (k === 'world') continue; // the bitecs world is not physics-owned
      visit((v as Record<string, unknown>)[k], depth + 1);
    }
  };
  visit(root, 0);
  return total;
}

export function createOurs(spheres: number, seed: number, continuous: boolean): Peer {
  const arena = buildArena({ spheres, seed, physics: { continuous } });
  const { physics, sphereIds, boxIds } = arena;
  const boxes = boxIds.length;
  let maxEid = 0;
  for (const e of sphereIds) maxEid = Math.max(maxEid, e);
  for (const e of boxIds) maxEid = Math.max(maxEid, e);
  const sphereIndex = new Int32Array(maxEid + 1).fill(-1);
  const boxIndex = new Int32Array(maxEid + 1).fill(-1);
  sphereIds.forEach((e, i) => (sphereIndex[e] = i));
  boxIds.forEach((e, i) => (boxIndex[e] = i));
  const bodies = sphereIds.length + boxes;
  return {
    id: continuous ? 'ours-continuous' : 'ours-static',
    bodies,
    lag: 1,
    tick: arena.tick,
    contacts: () => physics.contacts.count,
    pairs(out) {
      const c = physics.contacts;
      for (let i = 0; i < c.count; i++) {
        const s = sphereIndex[c.a[i]];
        const b = boxIndex[c.b[i]];
        if (s < 0 || b < 0) throw new Error(`unexpected contact pair (${c.a[i]}, ${c.b[i]})`);
        out.push(s * boxes + b);
      }
    },
    state() {
      const seen = new Set<ArrayBufferLike>();
      const components = typedArrayBytes(physics.components, seen);
      const internal = typedArrayBytes(internalsOf(physics), seen);
      const contacts = typedArrayBytes({ c: physics.contacts, b: physics.began, e: physics.ended }, seen);
      return { components, internal, contacts, total: components + internal + contacts, capacity: internalsOf(physics).capacity };
    },
    free() {},
  };
}
