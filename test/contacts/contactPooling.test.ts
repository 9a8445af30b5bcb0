/**
 * The Contact component across pooled despawns and respawns (docs/snapshots.md: despawn a body by
 * removing its Position, respawn it by adding Position back): after every tick the holders of
 * Contact are exactly the entities with a contact in `physics.contacts`.
 */
import { addComponent, createWorld, hasComponent, query, removeComponent } from 'bitecs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addBox, addSphere, createPhysics, step, type Physics } from '../../src/index.js';

/** The entities holding Contact and those with a contact in the list, both sorted. */
function holders(physics: Physics): { holding: number[]; touching: number[] } {
  const holding = [...query(physics.world, [physics.components.Contact])].sort((x, y) => x - y);
  const set = new Set<number>();
  const l = physics.contacts;
  for (let i = 0; i < l.count; i++) {
    set.add(l.a[i]);
    set.add(l.b[i]);
  }
  return { holding, touching: [...set].sort((x, y) => x - y) };
}

/** A ball resting on a box after one step (both hold Contact). */
function ballOnBox() {
  const world = createWorld();
  const physics = createPhysics(world, { dt: 1 / 60 });
  const box = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
  const ball = addSphere(physics, { position: [0, 1.25, 0], radius: 0.5 });
  step(physics);
  return { world, physics, box, ball };
}

/** Despawns `ball` (its Position removed) and spawns it again, as docs/snapshots.md's pooling does. */
function respawn(world: ReturnType<typeof createWorld>, ball: number, Position: object): void {
  removeComponent(world, ball, Position);
  addComponent(world, ball, Position);
}

describe('regressions (Contact after pooling)', () => {
  it('regression: a ball touching a box, despawned (Position removed) and respawned far away before the next step, loses Contact', () => {
    const { world, physics, box, ball } = ballOnBox();
    const { Contact, Position } = physics.components;
    expect(hasComponent(world, ball, Contact)).toBe(true);
    // Despawn, then respawn far from the box, before the next step.
    respawn(world, ball, Position);
    Position.x[ball] = 100;
    Position.y[ball] = 0;
    Position.z[ball] = 0;
    step(physics);
    expect(physics.contacts.count).toBe(0);
    expect([...query(world, [Contact])]).toEqual([]); // failed: [ball] (and the box lost it)
    expect(hasComponent(world, ball, Contact)).toBe(false);
    expect(hasComponent(world, box, Contact)).toBe(false);
    step(physics);
    expect([...query(world, [Contact])]).toEqual([]);
    // Back onto the box: Contact again.
    Position.x[ball] = 0;
    Position.y[ball] = 1.25;
    step(physics);
    expect(holders(physics).holding).toEqual([box, ball].sort((x, y) => x - y));
  });

  it('regression: despawned and respawned at the same place (still touching), the ball keeps Contact with fresh data', () => {
    const { world, physics, box, ball } = ballOnBox();
    const { Contact, Position } = physics.components;
    respawn(world, ball, Position);
    Position.x[ball] = 0;
    Position.y[ball] = 1.25;
    Position.z[ball] = 0;
    step(physics);
    expect(holders(physics)).toEqual({ holding: [box, ball].sort((x, y) => x - y), touching: [box, ball].sort((x, y) => x - y) });
    expect(Contact.other[ball]).toBe(box);
    expect(Contact.count[ball]).toBe(1);
  });
});

describe('Contact holders under random despawn/respawn sequences (property)', () => {
  // Four balls on a line of boxes; each tick, each ball may be despawned, respawned (at a place on a
  // box or far away), moved, or left alone; some ticks run several operations on one ball.
  const op = fc.record({
    ball: fc.integer({ min: 0, max: 3 }),
    kind: fc.constantFrom('despawn', 'respawn', 'move', 'despawnRespawn'),
    slot: fc.integer({ min: 0, max: 5 }),
  });
  const ticks = fc.array(fc.array(op, { maxLength: 4 }), { minLength: 1, maxLength: 12 });
  // Slots 0–3 are on boxes (touching), 4–5 far away.
  const place = (slot: number): [number, number, number] => (slot < 4 ? [slot * 3, 1.25, 0] : [100 + slot * 10, 0, 0]);

  it('after every tick, the holders of Contact are exactly the entities in physics.contacts', () => {
    fc.assert(
      fc.property(ticks, (seq) => {
        const world = createWorld();
        const physics = createPhysics(world, { dt: 1 / 60 });
        const { Position } = physics.components;
        for (let i = 0; i < 4; i++) addBox(physics, { position: [i * 3, 0, 0], halfExtents: [1, 1, 1] });
        const balls = [0, 1, 2, 3].map((i) => addSphere(physics, { position: place(i), radius: 0.5 }));
        const put = (e: number, slot: number) => {
          const p = place(slot);
          Position.x[e] = p[0];
          Position.y[e] = p[1];
          Position.z[e] = p[2];
        };
        for (const ops of seq) {
          for (const o of ops) {
            const e = balls[o.ball];
            const live = hasComponent(world, e, Position);
            if (o.kind === 'despawn' && live) removeComponent(world, e, Position);
            else if (o.kind === 'respawn' && !live) {
              addComponent(world, e, Position);
              put(e, o.slot);
            } else if (o.kind === 'move' && live) put(e, o.slot);
            else if (o.kind === 'despawnRespawn') {
              if (live) removeComponent(world, e, Position);
              addComponent(world, e, Position);
              put(e, o.slot);
            }
          }
          step(physics);
          const h = holders(physics);
          expect(h.holding).toEqual(h.touching);
        }
      }),
      { numRuns: 200, seed: 26 },
    );
  });
});
