/** Growable typed-array lists (grow by doubling, never inside a caller's inner loop body). */
import type { ContactList, EndedList, IdList, PairList } from './physicsTypes.js';

export function idListCreate(capacity = 64): IdList {
  return { count: 0, ids: new Uint32Array(capacity) };
}

export function idListPush(list: IdList, id: number): void {
  if (list.count === list.ids.length) {
    const next = new Uint32Array(list.ids.length * 2);
    next.set(list.ids);
    list.ids = next;
  }
  list.ids[list.count++] = id;
}

export function pairListCreate(capacity = 64): PairList {
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
  let size = list.a.length * 2;
  while (size < n) size *= 2;
  const na = new Uint32Array(size);
  const nb = new Uint32Array(size);
  na.set(list.a);
  nb.set(list.b);
  list.a = na;
  list.b = nb;
}

export function endedListCreate(capacity = 64): EndedList {
  return { count: 0, a: new Uint32Array(capacity), b: new Uint32Array(capacity), flags: new Uint8Array(capacity) };
}

/** Appends the pair (a, b) with `flags` (bits of `EndedFlags`). */
export function endedListPush(list: EndedList, a: number, b: number, flags: number): void {
  if (list.count === list.flags.length) {
    const next = new Uint8Array(list.flags.length * 2);
    next.set(list.flags);
    list.flags = next;
  }
  list.flags[list.count] = flags;
  pairListPush(list, a, b);
}

export function contactListCreate(capacity = 64): ContactList {
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
  let cap = list.a.length;
  while (cap < n) cap *= 2;
  const l = list as unknown as Record<string, Float64Array>;
  for (const k of ['a', 'b', 'nx', 'ny', 'nz', 'depth', 'px', 'py', 'pz', 'toi', 'flags']) {
    const old = l[k];
    const next = new (old.constructor as Float64ArrayConstructor)(cap);
    next.set(old);
    l[k] = next;
  }
}
