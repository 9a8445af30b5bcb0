/**
 * Growing typed arrays: buffers that grow by doubling, outside the loops that fill them.
 * @module
 */

/** The typed arrays {@link growArray} copies. */
export type Growable = Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;

/** A copy of `a` with length `n` (n > a.length), of the same type, new slots filled with `fill`. */
export function growArray<T extends Growable>(a: T, n: number, fill = 0): T {
  const next = new (a.constructor as { new (n: number): T })(n);
  next.set(a);
  if (fill !== 0) next.fill(fill, a.length);
  return next;
}
