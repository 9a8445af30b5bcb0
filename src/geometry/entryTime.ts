/**
 * Entry times of a moving point into round solids. Internal kernels of the cast queries.
 *
 * A point moves as q(t) = q + t·m, where q is its start relative to the solid's centre (line) and t
 * is in units of the motion m. Each function returns the first t >= 0 at which the point is inside
 * the solid (0 when it starts inside), or Infinity when it never enters. Callers compare with 1 for
 * "within this step".
 *
 * Precision: the discriminant b² − a·c of |q + t·m|² = r² cancels catastrophically when r is small
 * next to |q| (rays, small spheres) or the motion aims at the centre. It is computed instead as
 * a·(r² − p²), where p is the distance from the centre to the motion's line (Lagrange's identity
 * b² − a·(|q|² − r²) = a·r² − |q × m|²; see "Precision Improvements for Ray/Sphere Intersection",
 * Ray Tracing Gems, ch. 7), and the root as c / (−b + √disc), which does not cancel.
 */

/** Relative rounding of the line distance p = |q − (b/a)·m|: a few ulps of |q|. */
const PERP_EPS = 8 * Number.EPSILON;

/**
 * First t >= 0 with |q + t·m| <= r, given a = |m|², b = q·m, qq = |q|², r, and
 * perp2 = |q − (b/a)·m|² (the squared distance from the centre to the motion's line).
 *
 * The discriminant is taken in whichever form rounds less: b² − a·c when b² + a·c is below a·r²
 * (a start near the surface, where c = |q|² − r² is small), else a·(r² − p²) (a small target or a
 * motion aimed near the centre). In the second form a line distance within rounding of r (a few
 * ulps of |q|) counts as touching, so a ray aimed exactly at a point hits it.
 */
function firstRoot(a: number, b: number, qq: number, r: number, perp2: number): number {
  const rr = r * r;
  const c = qq - rr;
  if (c <= 0) return 0;
  if (b >= 0 || a === 0) return Infinity;
  if (b * b + a * c < a * rr) {
    const disc = b * b - a * c;
    return disc < 0 ? Infinity : c / (-b + Math.sqrt(disc));
  }
  if (perp2 > rr) {
    const slack = r + PERP_EPS * Math.sqrt(qq);
    return perp2 > slack * slack ? Infinity : -b / a; // grazing within rounding: closest approach
  }
  return c / (-b + Math.sqrt(a * (rr - perp2)));
}

/** Entry time of q + t·m into the ball of radius r centred at the origin (Ericson 5.3.2). */
export function enterBall(qx: number, qy: number, qz: number, mx: number, my: number, mz: number, r: number): number {
  const a = mx * mx + my * my + mz * mz;
  const b = qx * mx + qy * my + qz * mz;
  const qq = qx * qx + qy * qy + qz * qz;
  if (a === 0 || b >= 0) return qq <= r * r ? 0 : Infinity;
  const s = b / a;
  const px = qx - s * mx;
  const py = qy - s * my;
  const pz = qz - s * mz;
  return firstRoot(a, b, qq, r, px * px + py * py + pz * pz);
}

/** Entry time of the 2D point (qi, qj) + t·(mi, mj) into the disc of radius r at the origin. */
function enterDisc(qi: number, qj: number, mi: number, mj: number, r: number): number {
  const a = mi * mi + mj * mj;
  const b = qi * mi + qj * mj;
  const qq = qi * qi + qj * qj;
  if (a === 0 || b >= 0) return qq <= r * r ? 0 : Infinity;
  const s = b / a;
  const pi = qi - s * mi;
  const pj = qj - s * mj;
  return firstRoot(a, b, qq, r, pi * pi + pj * pj);
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
  const side = enterDisc(qi, qj, mi, mj, r);
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
