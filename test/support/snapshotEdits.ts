/**
 * Edits of snapshots for the tests of the reader: the section layout read from a header, the
 * checksum recomputed after an edit in place, the version-5 and version-4 forms of a version-6
 * snapshot (before the static margin policy, before the jam mark, docs/snapshots.md), and the check
 * that a restore rejects a snapshot with nothing changed.
 */
import { expect } from 'vitest';
import { hashPhysicsState, restoreSnapshot, SnapshotMismatchError, type Physics } from '../../src/index.js';
import { BodyFlags } from '../../src/physics/physicsTypes.js';
import { internalsOf } from '../../src/physics/internal.js';
import { bodyWords } from '../../src/snapshot/census.js';
import { snapshotChecksum } from '../../src/snapshot/checksum.js';
import {
  H_BODY_F64, H_CHECK1, H_CHECK2, H_CONTACTS, H_ENDED, H_EXPLICIT, H_FILTERS, H_POLICY, H_PURGE, H_TOTAL, H_TOUCHING,
  H_VERSION_OPTIONS, HEADER_BYTES, HEADER_BYTES_V5, headerBytesOf, layoutSections, SnapshotLayout, VERSION,
} from '../../src/snapshot/format.js';
import { LANE1, LANE2 } from '../../src/math/hashMixer.js';

/** The section offsets of a snapshot, from its header words `w` (its version gives the header size). */
export function layoutOf(w: Uint32Array): SnapshotLayout {
  const l = new SnapshotLayout();
  l.header = headerBytesOf(w[H_VERSION_OPTIONS] >>> 24);
  l.contacts = w[H_CONTACTS];
  l.ended = w[H_ENDED];
  l.touching = w[H_TOUCHING];
  l.explicit = w[H_EXPLICIT];
  l.filters = w[H_FILTERS];
  l.bodyF64 = w[H_BODY_F64];
  l.purge = w[H_PURGE];
  layoutSections(l);
  return l;
}

/** Recomputes the checksum of snapshot words `w` edited in place (so that the range checks are what catch an edit). */
export function reseal(w: Uint32Array): Uint8Array {
  const lanes = new Int32Array(2);
  snapshotChecksum(w, 0, w.length, lanes);
  w[H_CHECK1] = lanes[LANE1];
  w[H_CHECK2] = lanes[LANE2];
  return new Uint8Array(w.buffer, w.byteOffset, w.byteLength);
}

/**
 * Index (float64 word) of each Response record's jam word in a snapshot of `physics` (default
 * options) with a header of `header` bytes (this version's unless given).
 */
export function jamWords(physics: Physics, header = HEADER_BYTES): number[] {
  const { flags, maxEid, hasMaterial } = internalsOf(physics);
  const out: number[] = [];
  let j = header / 8;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    const n = bodyWords(f, hasMaterial[eid], 0);
    if (n === 0) continue;
    if ((f & BodyFlags.RESPONSE) !== 0) out.push(j + n - 1 - hasMaterial[eid]);
    j += n;
  }
  return out;
}

/**
 * The version-5 form of version-6 snapshot `u32`: the static margin (`F_MARGIN`, the header's last
 * float64 word) dropped, the sections moved up, word 7 (the margin policy) zeroed, resealed.
 */
export function toVersion5(u32: Uint32Array): ArrayBuffer {
  expect(u32[H_VERSION_OPTIONS] >>> 24).toBe(VERSION);
  const total = u32[H_TOTAL];
  const cut = HEADER_BYTES - HEADER_BYTES_V5;
  const out = new ArrayBuffer(total - cut);
  const o32 = new Uint32Array(out);
  o32.set(u32.subarray(0, HEADER_BYTES_V5 / 4));
  o32.set(u32.subarray(HEADER_BYTES / 4, total / 4), HEADER_BYTES_V5 / 4);
  o32[H_VERSION_OPTIONS] = (5 << 24) | (u32[H_VERSION_OPTIONS] & 0xffffff);
  o32[H_POLICY] = 0;
  o32[H_TOTAL] = out.byteLength;
  reseal(o32);
  return out;
}

/**
 * The version-4 form of version-6 snapshot `u32` of `physics`: its version-5 form with the jam
 * words dropped, later sections moved up, header rewritten.
 */
export function toVersion4(physics: Physics, u32: Uint32Array): ArrayBuffer {
  const v5 = new Uint32Array(toVersion5(u32));
  const f64 = new Float64Array(v5.buffer, 0, v5.length / 2);
  const l = layoutOf(v5);
  expect(l.total).toBe(v5[H_TOTAL]);
  const head = HEADER_BYTES_V5 / 8;
  const drop = new Set(jamWords(physics, HEADER_BYTES_V5));
  const words: number[] = [];
  for (let j = head; j < head + l.bodyF64; j++) if (!drop.has(j)) words.push(f64[j]);
  const dropped = l.bodyF64 - words.length;
  const out = new ArrayBuffer(l.total - 8 * dropped);
  const o32 = new Uint32Array(out), o64 = new Float64Array(out);
  o32.set(v5.subarray(0, HEADER_BYTES_V5 / 4));
  o64.set(words, head);
  o32.set(v5.subarray(l.contactF64 / 4, l.total / 4), (l.contactF64 - 8 * dropped) / 4);
  o32[H_VERSION_OPTIONS] = (4 << 24) | (v5[H_VERSION_OPTIONS] & 0xffffff);
  o32[H_BODY_F64] = words.length;
  o32[H_TOTAL] = out.byteLength;
  reseal(o32);
  return out;
}

/**
 * Restores `buf` into `physics` (unverified) and expects it rejected: a `SnapshotMismatchError`
 * naming `field`, with nothing changed (the state hash as before). Returns the error.
 */
export function expectRestoreRejected(physics: Physics, buf: ArrayBuffer, field: string): SnapshotMismatchError {
  const h = hashPhysicsState(physics);
  let err: unknown;
  try {
    restoreSnapshot(physics, buf, 0, { verify: false });
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(SnapshotMismatchError);
  expect((err as SnapshotMismatchError).field).toBe(field);
  expect(hashPhysicsState(physics)).toBe(h);
  return err as SnapshotMismatchError;
}

/** {@link expectRestoreRejected} for a bad jam mark: `bodies.jam`, body record `index`, entity `eid`. */
export function expectJamRejected(physics: Physics, buf: ArrayBuffer, index: number, eid: number): void {
  const err = expectRestoreRejected(physics, buf, 'bodies.jam');
  expect(err.index).toBe(index);
  expect(String(err)).toContain(`entity ${eid}`);
}
