/** Growable typed-array lists (grow by doubling, never inside a caller's inner loop body). */
import { doubledLength, growArray, type Growable } from '../math/grow.js';
import type { BeganList, ContactList, EndedList, IdList, PairList } from './physicsTypes.js';

export function createIdList(capacity = 64): IdList {
  return { count: 0, ids: new Uint32Array(capacity) };
}

export function idListPush(list: IdList, id: number): void {
  if (list.count === list.ids.length) list.ids = growArray(list.ids, list.ids.length * 2);
  list.ids[list.count++] = id;
}

/** Grows `list.ids` (by doubling) to hold at least `n` ids, keeping its contents. */
export function idListReserve(list: IdList, n: number): void {
  if (list.ids.length < n) list.ids = growArray(list.ids, doubledLength(list.ids.length, n));
}

export function createPairList(capacity = 64): PairList {
  return { count: 0, a: new Uint32Array(capacity), b: new Uint32Array(capacity) };
}

export function pairListPush(list: PairList, a: number, b: number): void {
  if (list.count === list.a.length) pairListReserve(list, list.a.length * 2);
  list.a[list.count] = a;
  list.b[list.count] = b;
  list.count++;
}

/** Grows `list`'s arrays (by doubling) to hold at least `n` pairs, keeping its contents. */
export function pairListReserve(list: PairList, n: number): void {
  if (list.a.length >= n) return;
  const size = doubledLength(list.a.length, n);
  list.a = growArray(list.a, size);
  list.b = growArray(list.b, size);
}

export function createEndedList(capacity = 64): EndedList {
  return { count: 0, a: new Uint32Array(capacity), b: new Uint32Array(capacity), flags: new Uint8Array(capacity) };
}

export function createBeganList(capacity = 64): BeganList {
  return { count: 0, a: new Uint32Array(capacity), b: new Uint32Array(capacity), flags: new Uint8Array(capacity) };
}

/** Grows a flagged pair list's arrays (by doubling) to hold at least `n` pairs, keeping its contents. */
export function flaggedPairListReserve(list: BeganList | EndedList, n: number): void {
  if (list.flags.length < n) list.flags = growArray(list.flags, doubledLength(list.flags.length, n));
  pairListReserve(list, n);
}

/**
 * Appends the pair (a, b) with its flags byte to `began` (bits of `ContactFlags`) or `ended` (bits of
 * `EndedFlags`).
 */
export function flaggedPairListPush(list: BeganList | EndedList, a: number, b: number, flags: number): void {
  if (list.count === list.flags.length) list.flags = growArray(list.flags, list.flags.length * 2);
  list.flags[list.count] = flags;
  pairListPush(list, a, b);
}

export function createContactList(capacity = 64): ContactList {
  const f = () => new Float64Array(capacity);
  return {
    count: 0, a: new Uint32Array(capacity), b: new Uint32Array(capacity),
    nx: f(), ny: f(), nz: f(), depth: f(), px: f(), py: f(), pz: f(), toi: f(),
    flags: new Uint8Array(capacity),
  };
}

/** Makes room for at least `n` contacts (keeps the first `count`). */
export function contactListReserve(list: ContactList, n: number): void {
  if (list.a.length >= n) return;
  const cap = doubledLength(list.a.length, n);
  const l = list as unknown as Record<string, Growable>;
  for (const k of ['a', 'b', 'nx', 'ny', 'nz', 'depth', 'px', 'py', 'pz', 'toi', 'flags']) l[k] = growArray(l[k], cap);
}

/**
 * Exchanges the contents of two contact lists (their arrays and counts), in O(1): each list object
 * keeps its identity (`physics.contacts` is read-only), its arrays are the other's.
 */
export function contactListSwap(x: ContactList, y: ContactList): void {
  const count = x.count, a = x.a, b = x.b, nx = x.nx, ny = x.ny, nz = x.nz;
  const depth = x.depth, px = x.px, py = x.py, pz = x.pz, toi = x.toi, flags = x.flags;
  x.count = y.count; x.a = y.a; x.b = y.b; x.nx = y.nx; x.ny = y.ny; x.nz = y.nz;
  x.depth = y.depth; x.px = y.px; x.py = y.py; x.pz = y.pz; x.toi = y.toi; x.flags = y.flags;
  y.count = count; y.a = a; y.b = b; y.nx = nx; y.ny = ny; y.nz = nz;
  y.depth = depth; y.px = px; y.py = py; y.pz = pz; y.toi = toi; y.flags = flags;
}

/** Copies contact `i` of `from` to slot `j` of `to` (room reserved by the caller; `from` may be `to`). */
export function contactListCopy(from: ContactList, i: number, to: ContactList, j: number): void {
  to.a[j] = from.a[i];
  to.b[j] = from.b[i];
  to.nx[j] = from.nx[i];
  to.ny[j] = from.ny[i];
  to.nz[j] = from.nz[i];
  to.depth[j] = from.depth[i];
  to.px[j] = from.px[i];
  to.py[j] = from.py[i];
  to.pz[j] = from.pz[i];
  to.toi[j] = from.toi[i];
  to.flags[j] = from.flags[i];
}
