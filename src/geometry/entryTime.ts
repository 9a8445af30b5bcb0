/**
 * Entry times of a moving point into round solids. Internal kernels of the cast queries.
 *
 * A point moves as q(t) = q + t·m, where q is its start relative to the solid's centre line and t is
 * in units of the motion m. Each function returns the first t >= 0 at which the point is inside the
 * solid (0 when it starts inside), or Infinity when it never enters. Callers compare with 1 for
 * "within this step".
 */

/**
 * First root t >= 0 of |q + t·m|² = r² in a space whose squared motion length is `a`:
 * a·t² + 2b·t + c = 0 with b = q·m and c = |q|² − r². Ericson, Real-Time Collision Detection,
 * 5.3.2 (intersecting ray against sphere), with the cancellation-free root c / (−b + √disc).
 */
export function firstEntry(a: number, b: number, c: number): number {
  if (c <= 0) return 0;
  if (b >= 0 || a === 0) return Infinity;
  const disc = b * b - a * c;
  if (disc < 0) return Infinity;
  return c / (-b + Math.sqrt(disc));
}

/** Entry time of the point q + t·m into the ball of radius r centred at the origin. */
export function enterBall(qx: number, qy: number, qz: number, mx: number, my: number, mz: number, r: number): number {
  return firstEntry(mx * mx + my * my + mz * mz, qx * mx + qy * my + qz * mz, qx * qx + qy * qy + qz * qz - r * r);
}

/**
 * Entry time of the point (qi, qj, qk) + t·(mi, mj, mk) into the capsule of radius r around the
 * segment {i = 0, j = 0, −hk <= k <= hk} (coordinates relative to the segment's line).
 * The capsule is a finite cylinder plus a ball at each end; its first entry is the earliest entry of
 * those parts (the cylinder's flat caps lie inside the end balls). Ericson, 5.3.7 (segment against
 * cylinder) with the end spheres of 5.3.2.
 */
export function enterCapsule(
  qi: number, qj: number, qk: number,
  mi: number, mj: number, mk: number,
  hk: number, r: number,
): number {
  let t = Infinity;
  const side = firstEntry(mi * mi + mj * mj, qi * mi + qj * mj, qi * qi + qj * qj - r * r);
  if (side !== Infinity) {
    const k = qk + side * mk;
    if (k >= -hk && k <= hk) t = side;
  }
  const t1 = enterBall(qi, qj, qk - hk, mi, mj, mk, r);
  if (t1 < t) t = t1;
  const t2 = enterBall(qi, qj, qk + hk, mi, mj, mk, r);
  if (t2 < t) t = t2;
  return t;
}
