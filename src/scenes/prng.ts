/**
 * A small seeded PRNG (sfc32, from PractRand) so scenes are identical in Node and browsers.
 * No Math.random anywhere in scene building or simulation.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [lo, hi). */
  range(lo: number, hi: number): number;
}

export function createRng(seed: number): Rng {
  let a = 0x9e3779b9 ^ seed;
  let b = 0x243f6a88 ^ Math.imul(seed, 0x85ebca6b);
  let c = 0xb7e15162 ^ Math.imul(seed, 0xc2b2ae35);
  let d = 1;
  const next32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next32();
  const next = () => next32() / 4294967296;
  return { next, range: (lo, hi) => lo + (hi - lo) * next() };
}

/** A uniformly random unit quaternion by rejection from the 4-cube (no trigonometry). */
export function randomQuat(rng: Rng): [number, number, number, number] {
  for (;;) {
    const x = rng.range(-1, 1), y = rng.range(-1, 1), z = rng.range(-1, 1), w = rng.range(-1, 1);
    const n2 = x * x + y * y + z * z + w * w;
    if (n2 > 1e-4 && n2 <= 1) {
      const inv = 1 / Math.sqrt(n2);
      return [x * inv, y * inv, z * inv, w * inv];
    }
  }
}
