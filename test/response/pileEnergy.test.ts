/**
 * Piles must gain no energy (issue 24, robust in crowds; open). Balls of random radii (0.2 to 0.5)
 * and masses (r³ times 2^±spread) dropped in a column into a walled box under gravity, touching
 * nothing at the start; the oracle is the mechanical energy E = Σ ½ m |v|² + m g y, which impacts
 * (restitution ≤ 1), friction and the resting solve can only lose. Kept as named expected failures.
 *
 * Found by a property over 80 random piles of up to 60 balls (240 ticks): up to 0.52 of Σ m g (y + 1)
 * gained in a plane (0.73 at 415b620), balls at 830 u/s (417 at 415b620), where the fall gives about
 * 29. The mechanism: a capped body (past its budget: it stays where it is for the rest of the tick,
 * its velocity kept) is met with an impulse on the other body's velocity alone (react.ts `reactPair`),
 * so a capped ball running away from the balls hitting it is pushed on by each of them; and a capped
 * body keeps a tick of gravity without moving. Tried (docs/response.md, Limits), each failing
 * another guarantee: the impulse on the relative velocity (worst gain 0.018, but the second pit of
 * pitRest.test.ts settled at tick 592, past 540); the smaller of the two approaches, with the hitting
 * body stopped as against a wall when the capped one runs away (0.023; the cradle, the rack and the
 * launch lost momentum); the same with the hitting body capped instead (0.217; the falling pile of
 * response.pile.test.ts kept 130 of its peak 146 of kinetic energy); the smaller approach and no
 * impulse (0.117; that pile kept 91.6, 668 of its 1,000 balls capped a tick); letting the hitting
 * body pass a capped one that runs away (both cases here pass, but balls sank into capped ones whose
 * kept velocity is unanswered gravity: the jam-mark column lost its marks).
 */
import { describe, expect, it } from 'vitest';
import { addBox, addSphere, step, type Physics } from '../../src/index.js';
import { freshPhysics } from '../support/response.js';

interface Pile {
  n: number;
  seed: number;
  e: number;
  mu: number;
  massSpread: number;
  w: number;
  narrow: boolean;
}

/** The pile (balls' ids and masses) in a box of inner half-width `w`, every centre at z = 0 when narrow. */
function pile(o: Pile): { physics: Physics; ids: number[]; m: number[] } {
  let s = o.seed >>> 0;
  const rnd = (): number => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
  const physics = freshPhysics({ gravity: [0, -9.81, 0], capacity: 256 });
  const W = o.w;
  addBox(physics, { position: [0, -1, 0], halfExtents: [W + 1, 1, W + 1], friction: o.mu });
  for (const [x, z, hx, hz] of [[-W - 0.5, 0, 0.5, W], [W + 0.5, 0, 0.5, W], [0, -W - 0.5, W, 0.5], [0, W + 0.5, W, 0.5]]) {
    addBox(physics, { position: [x, 10, z], halfExtents: [hx, 11, hz], friction: o.mu });
  }
  const ids: number[] = [], m: number[] = [];
  let top = 0;
  for (let i = 0; i < o.n; i++) {
    const r = 0.2 + 0.3 * rnd();
    const mass = r ** 3 * 2 ** (o.massSpread * (2 * rnd() - 1));
    const x = (2 * rnd() - 1) * (W - r), z = o.narrow ? 0 : (2 * rnd() - 1) * (W - r);
    ids.push(addSphere(physics, { position: [x, top + r, z], velocity: [0, 0, 0], radius: r, mass, response: 'bounce', restitution: o.e, friction: o.mu }));
    m.push(mass);
    top += 2 * r + 0.01;
  }
  return { physics, ids, m };
}

/** The largest gain of E over its start in `ticks` ticks, relative to Σ m g (y + 1) at the start, and the largest speed. */
function run(o: Pile, ticks: number): { gain: number; speed: number } {
  const { physics, ids, m } = pile(o);
  const { Position: P, Velocity: V } = physics.components;
  const energy = (): number => {
    let e = 0;
    for (let i = 0; i < ids.length; i++) {
      const b = ids[i];
      e += 0.5 * m[i] * (V.x[b] ** 2 + V.y[b] ** 2 + V.z[b] ** 2) + m[i] * 9.81 * P.y[b];
    }
    return e;
  };
  const e0 = energy();
  let scale = 0;
  for (let i = 0; i < ids.length; i++) scale += m[i] * 9.81 * (P.y[ids[i]] + 1);
  let gain = -Infinity, speed = 0;
  for (let t = 0; t < ticks; t++) {
    step(physics);
    gain = Math.max(gain, (energy() - e0) / scale);
    for (const b of ids) speed = Math.max(speed, Math.hypot(V.x[b], V.y[b], V.z[b]));
  }
  return { gain, speed };
}

describe('piles gain no energy (open: issue 24)', () => {
  it.fails('regression: 60 balls dropped into a narrow box (restitution 0, mass spread ×8) stay below the speed of their fall', () => {
    const { speed } = run({ n: 60, seed: 2147483629, e: 0, mu: 0, massSpread: 3, w: 1.9329575730384425, narrow: true }, 240);
    // Measured: 149.1 u/s (109.5 at 415b620). The fall from the top (42.6) gives 28.9 u/s.
    expect(speed).toBeLessThan(40);
  });

  it.fails('regression: 13 balls of one density dropped into a narrow box (restitution 0) gain no energy', () => {
    const { gain } = run({ n: 13, seed: 19, e: 0, mu: 0, massSpread: 0, w: 1.3383777179518808, narrow: true }, 150);
    // Measured: 0.266 of Σ m g (y + 1) (0.246 at 415b620).
    expect(gain).toBeLessThan(0.01);
  });
});
