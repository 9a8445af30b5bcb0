/**
 * Growing typed arrays: buffers that grow by doubling, outside the loops that fill them. The one
 * doubling rule ({@link doubledLength}) and the one grown copy ({@link growArray}).
 * @module
 */

/** The typed arrays {@link growArray} copies. */
export type Growable = Float64Array | Float32Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;

/** A copy of `a` with length `n` (n > a.length), of the same type, new slots filled with `fill`. */
export function growArray<T extends Growable>(a: T, n: number, fill = 0): T {
  const next = new (a.constructor as { new (n: number): T })(n);
  next.set(a);
  if (fill !== 0) next.fill(fill, a.length);
  return next;
}

/**
 * `length` doubled until it is at least `need`: the least length · 2^k >= need (k >= 0), so a buffer
 * grown to it by every caller keeps a power-of-two multiple of its first length. `length` >= 1.
 */
export function doubledLength(length: number, need: number): number {
  let n = length;
  while (n < need) n *= 2;
  return n;
}
