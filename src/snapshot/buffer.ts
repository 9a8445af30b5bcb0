/**
 * The caller's buffer as the snapshot writer and reader see it: a cursor holding float64, uint32 and
 * uint8 views and the byte offset `base` of the snapshot in them. Offsets are in bytes from the
 * start of the ArrayBuffer; word indices are `(base + offset) >>> 3` (float64) or `>>> 2` (uint32).
 *
 * When the snapshot starts at a multiple of 8 bytes in its ArrayBuffer, the views are the buffer's
 * own (created once per buffer, kept in a WeakMap). Otherwise the snapshot goes through the cursor's
 * scratch buffer (grown by doubling, kept) at base 0, copied byte by byte from or to the caller's
 * bytes. No allocation in steady state.
 * @module
 */
import { doubledLength } from '../math/grow.js';

/** Whole-buffer views of one ArrayBuffer. */
interface Views {
  f64: Float64Array;
  u32: Uint32Array;
  u8: Uint8Array;
}

const viewCache = new WeakMap<ArrayBufferLike, Views>();

function viewsOf(ab: ArrayBufferLike): Views {
  let v = viewCache.get(ab);
  if (v === undefined || v.u8.length !== ab.byteLength) {
    v = { f64: new Float64Array(ab, 0, ab.byteLength >>> 3), u32: new Uint32Array(ab, 0, ab.byteLength >>> 2), u8: new Uint8Array(ab) };
    viewCache.set(ab, v);
  }
  return v;
}

/** Where one snapshot is written or read. Create one per writer or reader and reuse it. */
export class SnapshotCursor {
  /** Views through which the snapshot is accessed: the caller's buffer, or the scratch. */
  f64: Float64Array;
  u32: Uint32Array;
  u8: Uint8Array;
  /** Byte offset of the snapshot start in the views. */
  base = 0;
  /** Bytes of the caller's buffer from the snapshot start. */
  avail = 0;
  /** The snapshot start is 8-aligned in the caller's ArrayBuffer (the views are the caller's). */
  aligned = true;
  /** The caller's whole ArrayBuffer as bytes, and the snapshot start in it. */
  target: Uint8Array;
  targetBase = 0;
  /** Staging buffer for unaligned snapshots. */
  scratch: ArrayBuffer = new ArrayBuffer(0);
  /** A walk's position between chunks of records: the next float64 word and uint32 word. */
  nextF64 = 0;
  nextU32 = 0;

  constructor() {
    const v = viewsOf(this.scratch);
    this.f64 = v.f64;
    this.u32 = v.u32;
    this.u8 = v.u8;
    this.target = v.u8;
  }
}

function useViews(c: SnapshotCursor, v: Views, base: number): void {
  c.f64 = v.f64;
  c.u32 = v.u32;
  c.u8 = v.u8;
  c.base = base;
}

/**
 * Points the cursor at `buffer` from byte `offset` (`who` names the caller in errors): the views
 * are the buffer's when the start is 8-aligned, else set by `stageRead` / `stageWrite`.
 * Throws `TypeError` for another kind of buffer and `RangeError` for an offset outside it.
 */
export function openBuffer(c: SnapshotCursor, who: string, buffer: ArrayBuffer | Uint8Array, offset: number): void {
  let ab: ArrayBufferLike;
  let start: number;
  let length: number;
  if (buffer instanceof Uint8Array) {
    ab = buffer.buffer;
    start = buffer.byteOffset;
    length = buffer.byteLength;
  } else if (buffer instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && (buffer as unknown) instanceof SharedArrayBuffer)) {
    ab = buffer;
    start = 0;
    length = buffer.byteLength;
  } else {
    throw new TypeError(`bitecs-collide: ${who}: buffer must be an ArrayBuffer or a Uint8Array`);
  }
  if (!(Number.isInteger(offset) && offset >= 0 && offset <= length)) {
    throw new RangeError(`bitecs-collide: ${who}: offset must be an integer in 0..${length} (the buffer's byte length), got ${String(offset)}`);
  }
  const views = viewsOf(ab);
  c.avail = length - offset;
  c.target = views.u8;
  c.targetBase = start + offset;
  c.aligned = (c.targetBase & 7) === 0;
  if (c.aligned) useViews(c, views, c.targetBase);
}

/** Points an unaligned cursor at a scratch of at least `bytes` bytes (grown by doubling). */
function useScratch(c: SnapshotCursor, bytes: number): void {
  if (c.scratch.byteLength < bytes) {
    c.scratch = new ArrayBuffer(doubledLength(Math.max(1024, c.scratch.byteLength), bytes));
  }
  useViews(c, viewsOf(c.scratch), 0);
}

/** Before reading `bytes` bytes: an unaligned snapshot's first `bytes` are copied to the scratch. */
export function stageRead(c: SnapshotCursor, bytes: number): void {
  if (c.aligned) return;
  useScratch(c, bytes); // (may replace the scratch: copy from the start)
  const src = c.target;
  const dst = c.u8;
  const at = c.targetBase;
  for (let i = 0; i < bytes; i++) dst[i] = src[at + i];
}

/** Before writing `bytes` bytes: an unaligned snapshot is written to the scratch. */
export function stageWrite(c: SnapshotCursor, bytes: number): void {
  if (!c.aligned) useScratch(c, bytes);
}

/** After writing `bytes` bytes: an unaligned snapshot is copied from the scratch to the caller's buffer. */
export function commitWrite(c: SnapshotCursor, bytes: number): void {
  if (c.aligned) return;
  const src = c.u8;
  const dst = c.target;
  const at = c.targetBase;
  for (let i = 0; i < bytes; i++) dst[at + i] = src[i];
}
