/**
 * Review of the jammed-body rule (resolve.ts `stopJammed`, docs/response.md "The budget and the
 * fallback"): with gravity, a capped body that moved no farther than the rest skin in the tick ends
 * it at rest. A body is also capped, without moving, when an impulse runs through a chain of
 * touching balls at time 0: a column of balls (radius 0.5, restitution 0.3) standing on a floor,
 * the lowest one launched upward at 10 u/s. The middle balls pass the impulse up and down the column
 * as impacts at time 0 until they reach the budget, and the velocity they hold then (upward, the
 * launch's momentum) is one they were given this tick, not a jam's. Found by the review: the rule
 * set it to 0, so the launch's momentum vanished (10 balls, gravity −9.81: 2.81 of 25.70 u·kg kept
 * after the first tick, 8 balls left standing still; before the rule, 25.70, and the column rose),
 * and a gravity of 1e-9 gave a different world from none (5 balls: 3.0 against 12.0). Fixed: the
 * rule now stops only a body jammed two ticks running (the jam mark, src/response/jam.ts, carried
 * across ticks, in snapshots and the state hash; test/response/jamMark.test.ts). The launch keeps
 * 25.70 after the first tick; with a gravity of −1e-9 the column of 5 follows the world of none
 * (3 of 5 balls jammed in the first tick, none after; the momenta differ by the gravity's own
 * 4.0e-8 after 600 ticks).
 *
 * A column of 10 balls standing on a floor reaches the budget every tick, every ball of it (10 capped
 * bodies a tick, docs/response.md "Closing note"), so no ball of it moves, whatever its velocity: the
 * top ball kicked sideways at 3 u/s stays where it is, tick after tick (found by the review; already
 * so before the jammed-body rule, which now also sets the kick to 0 at the end of the tick, from the
 * ball's second jammed tick; a column of 4 is knocked over as expected). Not fixed here: the budget of a chain of resting contacts is the
 * response's (another helper's area).
 *
 * The same rule in a game: the break of a rack of 15 balls (radius 0.5, restitution 0.9) touching on a
 * table under gravity, hit by a cue ball at 10 u/s. The rack's balls pass the impulse on as impacts
 * at time 0 and some reach the budget where they stand; the rule sets their velocity to 0, and the
 * horizontal momentum of the balls (10 u·kg: the table pushes only up) fell to 5.05 after the first
 * tick (8.09 with gaps of 1e-6 between the balls; 10.000 before the rule, and with it switched off).
 * Fixed by the same two-tick rule: 10 to 1e-9 over the first three ticks, both gaps.
 *
 * Two balls stacked exactly touching (centres 2R apart) on a floor, without sleep: the upper one
 * sinks into the lower one at 5.2e-9 a tick, linearly and without bound (3.1e-5 after 6,000 ticks,
 * 2.1e-4 after 40,000; already so before the jammed-body rule). Each tick the pair's cast hits at
 * time 0 approaching at 3.1e-7 u/s, below the dynamic pairs' rest tolerance (predict.ts REST_TOL ×
 * 2|g|·dt = 3.3e-5 u/s here), which counts as a touch and is not answered ("at most 2e-4 × g dt² of
 * sinking per tick", its comment says; docs/response.md does not), and a dynamic pair is never
 * pushed apart, so what each tick lets in accumulates. With a gap of 1e-6 they stay apart (jammed.test.ts); with
 * sleep on the pair sleeps at −1.6e-7. Not fixed here (the response is another helper's area).
 */
import { describe, expect, it } from 'vitest';
import { addBox, addSphere, setVelocity, step, type Physics } from '../../src/index.js';
import { freshPhysics } from '../support/response.js';

/** A column of `n` balls on a floor, the lowest launched upward at `v0`. */
function column(n: number, v0: number, gy: number): { physics: Physics; ids: number[] } {
  const physics = freshPhysics({ gravity: [0, gy, 0], capacity: 64 });
  addBox(physics, { position: [0, -1, 0], halfExtents: [5, 1, 5] });
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    ids.push(addSphere(physics, { position: [0, 0.5 + i, 0], velocity: [0, i === 0 ? v0 : 0, 0], radius: 0.5, response: 'bounce', restitution: 0.3 }));
  }
  return { physics, ids };
}

const momentumY = (physics: Physics, ids: number[]): number => ids.reduce((a, e) => a + physics.components.Velocity.y[e], 0);

describe('the jammed-body rule and an impulse running through a column', () => {
  it('regression: a launch from the bottom of a column of 10 keeps its momentum under gravity (less g·dt per ball)', () => {
    const { physics, ids } = column(10, 10, -9.81);
    step(physics);
    // Before the rule: 25.70 (25.79 without gravity, less 10 × 9.81 / 60 = 1.64 at most). With it: 2.81.
    expect(momentumY(physics, ids)).toBeGreaterThan(24);
  });

  it('regression: a gravity of 1e-9 gives the world of no gravity (column of 5, 3 ticks)', () => {
    const a = column(5, 10, -1e-9), b = column(5, 10, 0);
    for (let t = 0; t < 3; t++) {
      step(a.physics);
      step(b.physics);
      expect(momentumY(a.physics, a.ids)).toBeCloseTo(momentumY(b.physics, b.ids), 6);
    }
  });

  it.fails('regression: the top ball of a column of 10, kicked sideways at 3 u/s, leaves the column', () => {
    const { physics, ids } = column(10, 0, -9.81);
    for (let t = 0; t < 30; t++) step(physics);
    const top = ids[9];
    setVelocity(physics, top, [3, 0, 0]);
    for (let t = 0; t < 30; t++) step(physics);
    // Without the column under it, 3 u/s for 0.5 s: 1.5. Measured: 0 (a column of 4: the kicked ball moves).
    expect(physics.components.Position.x[top]).toBeGreaterThan(1);
  });

  it.fails('regression: the upper of two balls stacked exactly touching on a floor does not sink into the lower one', () => {
    const physics = freshPhysics({ gravity: [0, -9.81, 0], capacity: 16 });
    addBox(physics, { position: [0, -1, 0], halfExtents: [5, 1, 5] });
    const a = addSphere(physics, { position: [0, 0.5, 0], velocity: [0, 0, 0], radius: 0.5, response: 'slide' });
    const b = addSphere(physics, { position: [0, 1.5, 0], velocity: [0, 0, 0], radius: 0.5, response: 'slide' });
    const P = physics.components.Position;
    for (let t = 0; t < 6000; t++) step(physics);
    // Measured: −3.1e-5 (5.2e-9 a tick).
    expect(P.y[b] - P.y[a] - 1).toBeGreaterThanOrEqual(-1e-6);
  });

  it.each([0, 1e-6])('regression: the break of a rack of 15 balls on a table under gravity keeps the horizontal momentum (gaps %s)', (gap) => {
    const physics = freshPhysics({ gravity: [0, -9.81, 0], capacity: 64 });
    addBox(physics, { position: [0, -1, 0], halfExtents: [50, 1, 50] });
    const R = 0.5, ids: number[] = [];
    for (let row = 0; row < 5; row++) {
      for (let k = 0; k <= row; k++) {
        ids.push(addSphere(physics, { position: [row * Math.sqrt(3) * (R + gap / 2), R, (k - row / 2) * (2 * R + gap)], velocity: [0, 0, 0], radius: R, response: 'bounce', restitution: 0.9 }));
      }
    }
    ids.push(addSphere(physics, { position: [-2 * R - gap - 0.05, R, 0], velocity: [10, 0, 0], radius: R, response: 'bounce', restitution: 0.9 }));
    const V = physics.components.Velocity;
    for (let t = 0; t < 3; t++) {
      step(physics);
      // Equal masses: the sum of the velocities. Measured with the rule: 5.047 (gaps 0), 8.094 (gaps 1e-6).
      expect(ids.reduce((a, e) => a + V.x[e], 0)).toBeCloseTo(10, 9);
      expect(Math.abs(ids.reduce((a, e) => a + V.z[e], 0))).toBeLessThan(1e-9);
    }
  });
});
