/**
 * The slab test of a segment against an axis-aligned box (Kay & Kajiya, "Ray Tracing Complex
 * Scenes", 1986; Ericson, Real-Time Collision Detection, 5.3.3): the interval of t over which the
 * point `origin + t · direction` lies in the box grown by a margin on every side. Closed (touching
 * counts). Any frame and length unit; t in the direction's units. State in a caller-owned
 * Float64Array with named slots (no double passed as an argument).
 * @module
 */

/**
 * Slots of a slab state: origin (0–2), direction (3–5), 1 / direction (6–8, 0 where the direction is
 * 0: that axis is tested as an interval), the margin the box grows by (9, >= 0), and the t interval
 * clipped in place (10, 11).
 */
export const SB_O = 0, SB_D = 3, SB_INV = 6, SB_GROW = 9, SB_T0 = 10, SB_T1 = 11;
/** Number of slots of a slab state. */
export const SB_SLOTS = 12;

/**
 * Clips `[s[SB_T0], s[SB_T1]]` to the times the segment of `s` is inside the box `b[o .. o + 6)`
 * (min x, y, z, max x, y, z) grown by `s[SB_GROW]`; returns whether the interval is left non-empty.
 */
export function slabClip(s: Float64Array, b: ArrayLike<number>, o: number): boolean {
  let t0 = s[SB_T0], t1 = s[SB_T1];
  const grow = s[SB_GROW];
  for (let a = 0; a < 3; a++) {
    const lo = b[o + a] - grow, hi = b[o + 3 + a] + grow;
    const p = s[SB_O + a];
    if (s[SB_D + a] === 0) {
      if (!(p >= lo && p <= hi)) return false;
      continue;
    }
    const inv = s[SB_INV + a];
    let ta = (lo - p) * inv, tb = (hi - p) * inv;
    if (ta > tb) {
      const t = ta;
      ta = tb;
      tb = t;
    }
    if (ta > t0) t0 = ta;
    if (tb < t1) t1 = tb;
    if (!(t0 <= t1)) return false;
  }
  s[SB_T0] = t0;
  s[SB_T1] = t1;
  return true;
}

/** Loads the origin `src[o..o+2]` and direction `src[d..d+2]` into the slab state `s`, with 1 / direction. */
export function slabLoad(s: Float64Array, src: ArrayLike<number>, o: number, d: number): void {
  for (let a = 0; a < 3; a++) {
    s[SB_O + a] = src[o + a];
    s[SB_D + a] = src[d + a];
    s[SB_INV + a] = src[d + a] === 0 ? 0 : 1 / src[d + a];
  }
}
