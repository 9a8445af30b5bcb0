/**
 * The real cube root of a double, computed with exactly specified operations (+, −, ×, ÷ are
 * correctly rounded in every engine), so that it gives the same bits on V8, JavaScriptCore and
 * SpiderMonkey; `Math.cbrt` is implementation-approximated by the language (ECMA-262 §21.3.2.9)
 * and may differ in the last bit between engines.
 *
 * Method: the argument is scaled by powers of 8 into [1, 8) (exact: powers of two), then Newton's
 * iteration r ← (2r + x / r²) / 3 runs from r = 2, above the root, while it still decreases (the
 * iteration decreases monotonically towards the root from above, so it stops within one rounding
 * of it), and the scale is applied back (exact). Non-finite and non-positive inputs: 0 → 0, +∞ → +∞,
 * NaN and negatives → NaN (the callers size grids with positive volumes).
 */
export function cubeRoot(v: number): number {
  if (!(v > 0)) return v === 0 ? 0 : NaN;
  if (v === Infinity) return Infinity;
  let x = v;
  let scale = 1;
  while (x >= 8) {
    x /= 8;
    scale *= 2;
  }
  while (x < 1) {
    x *= 8;
    scale /= 2;
  }
  let r = 2;
  for (let i = 0; i < 64; i++) {
    const next = (2 * r + x / (r * r)) / 3;
    if (!(next < r)) break;
    r = next;
  }
  return r * scale;
}
