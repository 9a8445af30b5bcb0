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
