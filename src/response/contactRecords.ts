/**
 * Contacts of dynamic bodies: the pairs a dynamic sphere actually touched along the path it took
 * this tick (its first touch of each pair: an impact it reacted to, a touch it slid along or left,
 * or a sensor it crossed), recorded by the resolution, then merged into `physics.contacts`, which
 * holds the narrowphase's contacts of the other pairs, sorted by (a, b).
 *
 * Conventions as the contact list's: a is the sphere of a sphere–box pair and the lower id of two
 * spheres; the normal points from b toward a; the point is on b, in the world at the time of
 * impact; toi is the fraction of the tick at that time; depth is the overlap then (0 for a swept
 * touch). A record's numbers are passed through the named slots of `ResponseState.recIn`.
 * @module
 */
import { sortIds } from '../grid/sortIds.js';
import { contactListCopy, contactListReserve } from '../physics/idLists.js';
import type { ContactList } from '../physics/physicsTypes.js';
import { REC_SLOTS, reserveRecord, type ResponseState } from './responseState.js';

/** Slots of `ResponseState.recIn`, the input of `recordContact`: normal from the partner toward the owner, depth, world point, toi. */
export const RI_NX = 0, RI_DEPTH = 3, RI_PX = 4, RI_TOI = 7;

/** Whether the pair (a, b) has a record (owned by a). */
function hasRecord(s: ResponseState, a: number, b: number): boolean {
  for (let r = s.head[a]; r >= 0; r = s.recNext[r]) if (s.recB[r] === b) return true;
  return false;
}

/** Orders the pair of dynamic `owner` and `other`: returns the contact's a (b is the other one). */
function pairA(owner: number, other: number, otherSphere: boolean): number {
  return otherSphere && other < owner ? other : owner;
}

/** Whether the pair of `owner` and `other` was recorded this tick. */
export function isRecorded(s: ResponseState, owner: number, other: number, otherSphere: boolean): boolean {
  const a = pairA(owner, other, otherSphere);
  return hasRecord(s, a, a === owner ? other : owner);
}

/**
 * Records the first touch of the pair of dynamic `owner` and `other` this tick from `s.recIn`
 * (normal from other toward owner); a later touch of the same pair is ignored. `flags`: ContactFlags
 * bits (SENSOR).
 */
export function recordContact(s: ResponseState, owner: number, other: number, otherSphere: boolean, flags: number): void {
  const a = pairA(owner, other, otherSphere);
  const b = a === owner ? other : owner;
  if (hasRecord(s, a, b)) return;
  reserveRecord(s);
  const r = s.recCount++;
  if (s.head[a] < 0) s.owners[s.ownerCount++] = a;
  s.recA[r] = a;
  s.recB[r] = b;
  s.recNext[r] = s.head[a];
  s.head[a] = r;
  s.recFlags[r] = flags;
  writeSlots(s, r, a === owner ? 1 : -1);
}

/** Writes `s.recIn` to record `r`, its normal times `sign` (−1 when the record's a is not the owner). */
function writeSlots(s: ResponseState, r: number, sign: number): void {
  const o = REC_SLOTS * r;
  const rec = s.recIn;
  for (let k = 0; k < 3; k++) s.recF[o + k] = sign * rec[RI_NX + k];
  for (let k = 3; k < REC_SLOTS; k++) s.recF[o + k] = rec[k];
}

/**
 * Records an overlap left at the end of the tick by the projection (project.ts: a sphere squeezed
 * between a kinematic body and a static one) from `s.recIn` (toi 1): the pair's record, when it has
 * one (a touch earlier in the tick), is replaced by it, so that the pair reports where it ends;
 * otherwise it is recorded.
 */
export function recordOverlap(s: ResponseState, owner: number, other: number, otherSphere: boolean): void {
  const a = pairA(owner, other, otherSphere);
  const b = a === owner ? other : owner;
  for (let r = s.head[a]; r >= 0; r = s.recNext[r]) {
    if (s.recB[r] !== b) continue;
    writeSlots(s, r, a === owner ? 1 : -1);
    return;
  }
  recordContact(s, owner, other, otherSphere, 0);
}

/** Clears the records (and the owners' heads) for the next tick. */
export function clearRecords(s: ResponseState): void {
  for (let i = 0; i < s.ownerCount; i++) s.head[s.owners[i]] = -1;
  s.ownerCount = 0;
  s.recCount = 0;
}

/** Writes record `r` to slot `j` of `to` (room reserved). */
function writeRecord(s: ResponseState, r: number, to: ContactList, j: number): void {
  const o = REC_SLOTS * r;
  const f = s.recF;
  to.a[j] = s.recA[r];
  to.b[j] = s.recB[r];
  to.nx[j] = f[o];
  to.ny[j] = f[o + 1];
  to.nz[j] = f[o + 2];
  to.depth[j] = f[o + 3];
  to.px[j] = f[o + 4];
  to.py[j] = f[o + 5];
  to.pz[j] = f[o + 6];
  to.toi[j] = f[o + 7];
  to.flags[j] = s.recFlags[r];
}

/** Puts owner `a`'s records in `s.sorted`, ascending by b; returns how many. */
function sortOwner(s: ResponseState, a: number): number {
  let n = 0;
  const sorted = s.sorted;
  for (let r = s.head[a]; r >= 0; r = s.recNext[r]) {
    const b = s.recB[r];
    let k = n++;
    while (k > 0 && s.recB[sorted[k - 1]] > b) {
      sorted[k] = sorted[k - 1];
      k--;
    }
    sorted[k] = r;
  }
  return n;
}

/**
 * Merges the records into `list`, which holds the narrowphase's contacts of the pairs without a
 * dynamic body, sorted by (a, b), keeping it sorted. In place, from the back: each contact moves at
 * most once, to its final slot (no pair is both a record and a listed contact: every record has a
 * dynamic body, the narrowphase lists none).
 */
export function mergeRecords(s: ResponseState, list: ContactList): void {
  const n0 = list.count;
  const total = n0 + s.recCount;
  contactListReserve(list, total);
  sortIds(s.owners, s.ownerCount);
  let i = n0 - 1;
  let j = total - 1;
  for (let o = s.ownerCount - 1; o >= 0; o--) {
    const a = s.owners[o];
    const n = sortOwner(s, a);
    for (let k = n - 1; k >= 0; k--) {
      const r = s.sorted[k];
      const b = s.recB[r];
      while (i >= 0 && (list.a[i] > a || (list.a[i] === a && list.b[i] > b))) contactListCopy(list, i--, list, j--);
      writeRecord(s, r, list, j--);
    }
  }
  list.count = total;
}
