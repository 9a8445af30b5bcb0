/**
 * Cosine and sine computed with exactly specified operations only (+, −, ×, ÷ and `Math.round` are
 * correctly rounded or exact in every engine), so that they give the same bits on V8,
 * JavaScriptCore and SpiderMonkey; `Math.cos` / `Math.sin` are implementation-approximated by the
 * language (ECMA-262 §21.3.2) and may differ in the last bits between engines, which would break
 * cross-engine determinism wherever a result feeds the simulation.
 *
 * Method: the angle x (radians) is reduced to r = x − k·2π with k = round(x / 2π), r in [−π, π]
 * (2π as the double nearest it plus the remainder), then the Taylor series of cos or sin in r is
 * summed by Horner's rule in r² up to the term of degree 34 or 35, whose size at |r| = π is below
 * 1e-22. Accuracy: absolute error below 1.2e-15 against `Math.cos` / `Math.sin` for |x| ≤ 20
 * (measured on 200,001 angles); relative accuracy is lost near the zeros (cosine(π/2) is 0, not
 * 6.1e-17), and the reduction loses absolute accuracy as |x| grows. NaN and ±∞ give NaN. For the
 * module's uses (a slope limit's cosine, scene generation) absolute accuracy is what matters.
 */

/** 2π as the nearest double and the rest: TWO_PI_HI + TWO_PI_LO ≈ 2π to about 1e-31. */
const TWO_PI_HI = 6.28318530717958623200e+00;
const TWO_PI_LO = 2.44929359829470635445e-16;
const INV_TWO_PI = 1.59154943091895335769e-01;

/** Terms of the series after the constant: cos up to r³⁴/34!, sin up to r³⁵/35! (below 1e-22 at |r| = π). */
const COS_TERMS = 17;
const SIN_TERMS = 17;

function reduce(x: number): number {
  const k = Math.round(x * INV_TWO_PI);
  return (x - k * TWO_PI_HI) - k * TWO_PI_LO;
}

/** cos(x), x in radians: deterministic across engines (see the module comment). */
export function cosine(x: number): number {
  if (!(x - x === 0)) return NaN; // NaN and ±∞
  const r = reduce(x);
  const r2 = r * r;
  // Horner from the highest term: s = 1 − r²/2!(1 − r²/(3·4)(1 − …)).
  let s = 1;
  for (let n = COS_TERMS; n >= 1; n--) s = 1 - (r2 / ((2 * n - 1) * (2 * n))) * s;
  return s;
}

/**
 * a[o] = cosine(a[o]) in place, the same bits as {@link cosine}: for per-body code, where a double
 * passed to or returned from a call that V8 does not inline is boxed (docs/internals.md, performance
 * idiom 1; `cosine` in the character stage allocated 16 B per character per tick). Its own copy of
 * the reduction and the sum, so that nothing inside it returns a double either.
 */
export function cosineAt(a: Float64Array, o: number): void {
  const x = a[o];
  if (!(x - x === 0)) {
    a[o] = NaN;
    return;
  }
  const k = Math.round(x * INV_TWO_PI);
  const r = (x - k * TWO_PI_HI) - k * TWO_PI_LO;
  const r2 = r * r;
  let s = 1;
  for (let n = COS_TERMS; n >= 1; n--) s = 1 - (r2 / ((2 * n - 1) * (2 * n))) * s;
  a[o] = s;
}

/** sin(x), x in radians: deterministic across engines (see the module comment). */
export function sine(x: number): number {
  if (!(x - x === 0)) return NaN;
  if (x === 0) return x; // keeps the sign of −0, as Math.sin does
  const r = reduce(x);
  const r2 = r * r;
  let s = 1;
  for (let n = SIN_TERMS; n >= 1; n--) s = 1 - (r2 / ((2 * n) * (2 * n + 1))) * s;
  return r * s;
}
