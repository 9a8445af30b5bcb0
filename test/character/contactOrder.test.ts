/**
 * Regression (issue 28 / 30): the character stage merged its contacts into `physics.contacts` with
 * a character–character pair twice (each of the two characters recorded it), so the list broke its
 * invariant (strictly ascending (a, b), a ≠ b) and a snapshot saved after such a tick was rejected by
 * `restoreSnapshot` ("contacts.pair[3]: pairs out of (a, b) order or a pair of one entity"). After
 * every tick with characters touching characters, dynamic spheres, kinematic and static boxes and
 * sensors, the list keeps the invariant and a snapshot round-trips.
 */
import { createWorld } from 'bitecs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addBox, addCharacter, addSphere, createPhysics, restoreSnapshot, saveSnapshot, snapshotSize, step, type Physics } from '../../src/index.js';

/** The first index breaking strictly ascending (a, b) order or a = b, or −1 (checked directly, not through the snapshot checks). */
function badContact(physics: Physics): number {
  const l = physics.contacts;
  for (let i = 0; i < l.count; i++) {
    if (l.a[i] === l.b[i]) return i;
    if (i > 0 && (l.a[i] < l.a[i - 1] || (l.a[i] === l.a[i - 1] && l.b[i] <= l.b[i - 1]))) return i;
  }
  return -1;
}

/** Steps `ticks` times; after each, the invariant holds and a snapshot restores into the instance itself. Returns the contacts seen. */
function stepChecked(physics: Physics, ticks: number, steer?: (t: number) => void): number {
  let seen = 0;
  for (let t = 0; t < ticks; t++) {
    steer?.(t);
    step(physics);
    seen += physics.contacts.count;
    const bad = badContact(physics);
    if (bad >= 0) {
      const l = physics.contacts;
      throw new Error(`tick ${t}: contact ${bad} breaks the order: ${Array.from({ length: l.count }, (_, i) => `${l.a[i]}–${l.b[i]}`).join(', ')}`);
    }
    const buf = new Uint8Array(snapshotSize(physics));
    saveSnapshot(physics, buf);
    restoreSnapshot(physics, buf);
  }
  return seen;
}

describe('the character stage keeps physics.contacts ordered', () => {
  it('two characters walking into each other, a dynamic sphere between others (regression: a pair listed twice)', () => {
    const physics = createPhysics(createWorld(), { gravity: [0, -10, 0] });
    addBox(physics, { position: [0, -1, 0], halfExtents: [50, 1, 50] });
    const a = addCharacter(physics, { position: [-1, 0.5, 0], radius: 0.5 });
    const b = addCharacter(physics, { position: [1, 0.5, 0], radius: 0.5 });
    addSphere(physics, { position: [0, 0.5, 3], radius: 0.5, response: 'slide' });
    const c = addCharacter(physics, { position: [-1, 0.5, 3], radius: 0.5 });
    const d = addCharacter(physics, { position: [1, 0.5, 3], radius: 0.5 });
    const V = physics.components.Velocity;
    const seen = stepChecked(physics, 60, () => {
      V.x[a] = 3; V.x[b] = -3; V.x[c] = 3; V.x[d] = -3;
    });
    expect(seen).toBeGreaterThan(0);
  });

  it('holds for random crowds of characters among dynamic spheres, kinematic and static boxes and sensors', () => {
    const body = fc.record({
      kind: fc.constantFrom('character', 'character', 'sphere', 'kinematic', 'static', 'sensor'),
      x: fc.integer({ min: -8, max: 8 }),
      z: fc.integer({ min: -8, max: 8 }),
      vx: fc.integer({ min: -6, max: 6 }),
      vz: fc.integer({ min: -6, max: 6 }),
    });
    fc.assert(
      fc.property(fc.array(body, { minLength: 2, maxLength: 24 }), fc.boolean(), (bodies, gravity) => {
        const physics = createPhysics(createWorld(), { gravity: gravity ? [0, -10, 0] : [0, 0, 0] });
        if (gravity) addBox(physics, { position: [0, -1, 0], halfExtents: [20, 1, 20] });
        const steered: Array<[number, number, number]> = [];
        for (const o of bodies) {
          const position = { x: o.x * 0.6, y: 0.5, z: o.z * 0.6 };
          if (o.kind === 'character') steered.push([addCharacter(physics, { position, radius: 0.5 }), o.vx, o.vz]);
          else if (o.kind === 'sphere') addSphere(physics, { position, radius: 0.4, velocity: [o.vx, 0, o.vz], response: 'bounce' });
          else if (o.kind === 'kinematic') addBox(physics, { position, halfExtents: [0.4, 0.4, 0.4], velocity: [o.vx * 0.2, 0, o.vz * 0.2] });
          else if (o.kind === 'static') addBox(physics, { position, halfExtents: [0.5, 0.5, 0.5] });
          else addSphere(physics, { position, radius: 0.6, sensor: true });
        }
        const V = physics.components.Velocity;
        stepChecked(physics, 30, (t) => {
          for (const [e, vx, vz] of steered) {
            V.x[e] = t < 15 ? vx : -vx;
            V.z[e] = t < 15 ? vz : -vz;
          }
        });
      }),
      { numRuns: 60, seed: 28 },
    );
  });
});
