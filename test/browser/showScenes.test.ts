/**
 * The demo menu's scenes in Node (no browser): each tells what its caption says, checked against
 * independent references where there is one.
 *
 * - bullets: with continuous contacts no bullet passes the wall, without them every one does, and a
 *   salvo during which the switch changed is not counted;
 * - line of sight: each enemy's verdict (its castRay reached the player) equals a 2D segment test
 *   against every wall's rectangle written here (slab test in the rectangle's frame), tick by tick
 *   along the patrol and under keyboard input; the patrol never brushes a wall;
 * - sensors: a zone is lit whenever a ball ends the tick inside it, and only when a ball ended the
 *   tick within one tick of motion of it (point–circle and point–rectangle distances written here);
 * - ball pit: all balls come to rest inside the box, none below the floor;
 * - character: walks the course by itself onto the plateau and back up the stairs, carried by the platform;
 * - every scene: ticks without throwing and draws only its own bodies.
 */
import { describe, expect, it } from 'vitest';
import { createBulletsScene, BULLETS, SALVO_TICKS } from '../../examples/browser/scenes/bullets.js';
import { SCENES } from '../../examples/browser/scenes/index.js';
import { createPitScene, HALF_X, HALF_Z } from '../../examples/browser/scenes/pit.js';
import { createSensorsScene } from '../../examples/browser/scenes/sensors.js';
import { createSightScene, type SightScene } from '../../examples/browser/scenes/sight.js';
import { createCharacterScene, PLATEAU_H } from '../../examples/browser/scenes/character.js';
import { COLORS, type ShowScene } from '../../examples/browser/showScene.js';

/** Box e's rectangle in the xy plane: centre, half sizes and the rotation about z (cos, sin) from its quaternion. */
function rect(s: ShowScene, e: number) {
  const { Position: p, Box: b } = s.physics.components;
  const l = Math.hypot(b.qx[e], b.qy[e], b.qz[e], b.qw[e]);
  const qz = b.qz[e] / l, qw = b.qw[e] / l;
  expect(Math.abs(b.qx[e]) + Math.abs(b.qy[e]), 'a rotation about z only').toBe(0);
  return { cx: p.x[e], cy: p.y[e], hx: b.hx[e], hy: b.hy[e], c: 1 - 2 * qz * qz, s: 2 * qz * qw };
}
type Rect = ReturnType<typeof rect>;

/** Point (x, y) in the rectangle's frame. */
function local(r: Rect, x: number, y: number): [number, number] {
  const dx = x - r.cx, dy = y - r.cy;
  return [r.c * dx + r.s * dy, -r.s * dx + r.c * dy];
}

/** Whether the segment a → b meets the rectangle grown by `grow` (negative: shrunk), by the slab test. */
function segmentMeets(r: Rect, ax: number, ay: number, bx: number, by: number, grow: number): boolean {
  const [x0, y0] = local(r, ax, ay), [x1, y1] = local(r, bx, by);
  let t0 = 0, t1 = 1;
  for (const [p, d, h] of [[x0, x1 - x0, r.hx + grow], [y0, y1 - y0, r.hy + grow]]) {
    if (d === 0) {
      if (Math.abs(p) > h) return false;
      continue;
    }
    let ta = (-h - p) / d, tb = (h - p) / d;
    if (ta > tb) [ta, tb] = [tb, ta];
    t0 = Math.max(t0, ta);
    t1 = Math.min(t1, tb);
    if (t0 > t1) return false;
  }
  return true;
}

/** Distance from (x, y) to the rectangle (0 inside). */
function pointRectDistance(r: Rect, x: number, y: number): number {
  const [u, v] = local(r, x, y);
  return Math.hypot(Math.max(Math.abs(u) - r.hx, 0), Math.max(Math.abs(v) - r.hy, 0));
}

describe('demo menu scenes (Node)', () => {
  it('bullets: with continuous contacts none passes, without them all do; a salvo that saw the switch is not counted', () => {
    const on = createBulletsScene({ continuous: true });
    const off = createBulletsScene({ continuous: false });
    for (let t = 0; t < 4 * SALVO_TICKS + 1; t++) {
      on.tick();
      off.tick();
      expect(on.through()).toBe(0);
      for (let i = 0; i < off.physics.contacts.count; i++) expect(off.boxes).not.toContain(off.physics.contacts.b[i]);
    }
    expect(on.figures()).toMatchObject({ firedOn: 4 * BULLETS, passedOn: 0, firedOff: 0 });
    expect(off.figures()).toMatchObject({ firedOff: 4 * BULLETS, passedOff: 4 * BULLETS, firedOn: 0 });
    // Switched off in the middle of the fifth salvo: not counted; the sixth counts as off.
    for (let t = 0; t < SALVO_TICKS / 3; t++) on.tick();
    on.physics.continuous = false;
    for (let t = 0; t < SALVO_TICKS * 2; t++) on.tick();
    expect(on.figures()).toMatchObject({ firedOn: 4 * BULLETS, passedOn: 0, firedOff: BULLETS, passedOff: BULLETS });
  });

  it('line of sight: every enemy sees the player exactly when no wall crosses the segment between their centres', () => {
    const scene = createSightScene();
    const walls = [...scene.boxes].map((b) => rect(scene, b));
    const p = scene.physics.components.Position;
    let checked = 0, seen = 0, blocked = 0;
    const compare = (s: SightScene) => {
      const px = p.x[s.player], py = p.y[s.player];
      s.enemies.forEach((e, i) => {
        const hits = walls.map((w) => [segmentMeets(w, p.x[e], p.y[e], px, py, -1e-6), segmentMeets(w, p.x[e], p.y[e], px, py, 1e-6)]);
        if (hits.some(([inner, outer]) => inner !== outer)) return; // grazes a corner: either answer is right
        const oracle = hits.some(([inner]) => inner) ? 0 : 1;
        expect(s.sees[i], `tick ${s.physics.tick}, enemy ${i}`).toBe(oracle);
        checked++;
        if (oracle) seen++;
        else blocked++;
      });
    };
    const r = scene.physics.components.Sphere.radius[scene.player];
    for (let t = 0; t < 1200; t++) {
      // Keyboard input for a while in the middle (up and left, into the walls), the patrol otherwise.
      if (t === 500) scene.setInput(-1, 1);
      if (t === 650) scene.setInput(0, 0);
      scene.tick();
      compare(scene);
      // The player never ends a tick inside a wall (it slides along them).
      for (const w of walls) expect(pointRectDistance(w, p.x[scene.player], p.y[scene.player])).toBeGreaterThan(r - 1e-9);
    }
    expect(checked).toBeGreaterThan(7 * 1100);
    expect(seen).toBeGreaterThan(500);
    expect(blocked).toBeGreaterThan(500);
    expect(scene.figures().auto).toBe(1); // back on patrol after the input stopped
  });

  it('line of sight: the patrol loop keeps the player at least 0.5 from every wall', () => {
    const scene = createSightScene();
    const walls = [...scene.boxes].map((b) => rect(scene, b));
    const p = scene.physics.components.Position;
    let nearest = Infinity;
    for (let t = 0; t < 1200; t++) {
      scene.tick();
      for (const w of walls) nearest = Math.min(nearest, pointRectDistance(w, p.x[scene.player], p.y[scene.player]));
    }
    expect(nearest).toBeGreaterThan(1);
  });

  it('sensors: a zone is lit when a ball ends the tick inside it, and only with a ball within a tick of motion', () => {
    const scene = createSensorsScene({ seed: 5 });
    const { Position: p, Velocity: v, Sphere: sphere } = scene.physics.components;
    const zones = [...scene.translucent!];
    const balls = [...scene.spheres].filter((e) => !zones.includes(e));
    const boxZones = new Map(zones.filter((z) => scene.boxes.includes(z)).map((z) => [z, rect(scene, z)]));
    const distance = (z: number, x: number, y: number) =>
      boxZones.has(z) ? pointRectDistance(boxZones.get(z)!, x, y) : Math.max(0, Math.hypot(x - p.x[z], y - p.y[z]) - sphere.radius[z]);
    let litTicks = 0;
    for (let t = 0; t < 600; t++) {
      scene.tick();
      for (const z of zones) {
        const isLit = scene.color(z) === COLORS.sensorLit;
        const inside = balls.some((b) => distance(z, p.x[b], p.y[b]) < sphere.radius[b] - 1e-9);
        const near = balls.some((b) => distance(z, p.x[b], p.y[b]) <= sphere.radius[b] + Math.hypot(v.x[b], v.y[b]) * scene.physics.dt + 1e-9);
        if (inside) expect(isLit, `tick ${t + 1}, zone ${z}`).toBe(true);
        if (isLit) expect(near, `tick ${t + 1}, zone ${z}`).toBe(true);
        if (isLit) litTicks++;
      }
    }
    expect(litTicks).toBeGreaterThan(300);
    expect(scene.figures().entries).toBeGreaterThan(20);
  });

  it('ball pit: every ball comes to rest inside the box', () => {
    const scene = createPitScene({ seed: 1 });
    const { Position: p, Sphere: sphere } = scene.physics.components;
    for (let t = 0; t < 600; t++) {
      scene.tick();
      for (const b of scene.spheres) expect(p.y[b] - sphere.radius[b]).toBeGreaterThan(-1e-9);
    }
    expect(scene.figures().moving).toBe(0);
    expect(scene.figures().restedAt).toBeGreaterThan(0);
    for (const b of scene.spheres) {
      expect(Math.abs(p.x[b]) + sphere.radius[b]).toBeLessThanOrEqual(HALF_X + 1e-9);
      expect(Math.abs(p.z[b]) + sphere.radius[b]).toBeLessThanOrEqual(HALF_Z + 1e-9);
    }
  });

  it('every scene of the menu ticks, has a caption of one sentence, and draws bodies of its own world', () => {
    for (const entry of SCENES) {
      expect(entry.caption.length, entry.id).toBeLessThan(160);
      const scene = entry.create({ seed: 1, bodies: 1000, continuous: true });
      for (let t = 0; t < 5; t++) scene.tick();
      const { Position } = scene.physics.components;
      for (const e of [...scene.spheres, ...scene.boxes]) expect(Number.isFinite(Position.x[e]), `${entry.id} ${e}`).toBe(true);
      expect(scene.status().length).toBeGreaterThan(0);
    }
  });
  it('character: walks the course by itself, up the ramp onto the plateau, down and up the stairs, carried by the platform', () => {
    const scene = createCharacterScene();
    const { Position: p, Sphere: sphere, Character: ch } = scene.physics.components;
    const e = scene.character, r = sphere.radius[e];
    let highest = -Infinity, lowest = Infinity, grounded = 0, turns = 0, last = 1, carried = 0;
    for (let t = 0; t < 1500; t++) {
      const x0 = p.x[e];
      scene.tick();
      highest = Math.max(highest, p.y[e] - r);
      lowest = Math.min(lowest, p.y[e] - r);
      if (ch.grounded[e] === 1) grounded++;
      const dir = Math.sign(p.x[e] - x0);
      if (dir !== 0 && dir !== last) {
        turns++;
        last = dir;
      }
      if (ch.groundEid[e] === scene.platform) carried++;
    }
    // The plateau's top is PLATEAU_H above the floor; the character stands on it, never sinks below the floor.
    expect(highest).toBeGreaterThan(PLATEAU_H - 1e-6);
    expect(lowest).toBeGreaterThan(-1e-6);
    expect(grounded).toBeGreaterThan(1400);
    expect(turns).toBeGreaterThanOrEqual(2); // there and back, and there again: the stairs were climbed
    expect(carried).toBeGreaterThan(10);
  });
});
