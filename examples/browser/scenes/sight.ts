/**
 * Line of sight, in the plane z = 0: a player (green) walks among walls; after every tick each enemy
 * (red) casts one ray toward the player's centre (`castRay`, walls and the player only). A red line
 * means the ray reached the player: the enemy sees it; a grey line ends where a wall blocks the view.
 *
 * The player is a dynamic sphere (Response SLIDE, no gravity): its velocity is set each tick from the
 * keyboard (`setInput`), or, while no key has been held for {@link AUTO_AFTER_TICKS} ticks, toward the
 * next point of a patrol loop that goes behind cover; it slides along the walls.
 * @module
 */
import { createWorld } from 'bitecs';
import { addBox, addSphere, castRay, createDebugLines, createPhysics, step, type QueryHit } from '../../../src/index.js';
import { COLORS, pushLine, type Label, type ShowScene } from '../showScene.js';

/** Player speed, length units per second. */
const SPEED = 7;
/** Ticks without keyboard input before the patrol takes over again. */
const AUTO_AFTER_TICKS = 120;
const WALLS = 1, PLAYER = 2, ENEMIES = 4;
const HALF_W = 20, HALF_H = 12;
/** A 45° turn about z. */
const TURN45: [number, number, number, number] = [0, 0, 0.3826834323650898, 0.9238795325112867];
export const COVER: { c: [number, number]; h: [number, number]; q?: [number, number, number, number] }[] = [
  { c: [-8, 3], h: [0.5, 4] },
  { c: [8, -3], h: [0.5, 4] },
  { c: [0, 0], h: [2.5, 0.5], q: TURN45 },
  { c: [-13, -6], h: [3, 0.5] },
  { c: [13, 6], h: [3, 0.5] },
  { c: [0, 8], h: [4, 0.5] },
  { c: [0, -8], h: [4, 0.5] },
];
const ENEMY_AT: [number, number][] = [[17, 9], [17, -9], [-17, -9], [-17, 9], [0, -11], [0, 11], [12, 0]];
/** The patrol loop: straight legs clear of the cover (checked against COVER by hand, and by the scene's test). */
export const PATROL: [number, number][] = [[-5, 5], [5, 5], [5, -5], [-5, -5], [-11, -3], [-11, 9], [-5, 10]];

export interface SightScene extends ShowScene {
  /** Per enemy (in `enemies` order), 1 when its last ray reached the player. */
  readonly sees: Uint8Array;
  /** Keyboard direction, each component in -1..1 (0, 0: no key held). */
  setInput(x: number, y: number): void;
  readonly player: number;
  readonly enemies: Uint32Array;
}

export function createSightScene(): SightScene {
  const world = createWorld();
  const physics = createPhysics(world, { dt: 1 / 60, capacity: 64, contactComponent: false });
  const boxes: number[] = [];
  const wall = (c: [number, number], h: [number, number], q?: [number, number, number, number]) =>
    boxes.push(addBox(physics, { position: [c[0], c[1], 0], halfExtents: [h[0], h[1], 1], rotation: q, group: WALLS }));
  wall([0, HALF_H + 0.5], [HALF_W + 1, 0.5]);
  wall([0, -HALF_H - 0.5], [HALF_W + 1, 0.5]);
  wall([HALF_W + 0.5, 0], [0.5, HALF_H]);
  wall([-HALF_W - 0.5, 0], [0.5, HALF_H]);
  for (const b of COVER) wall(b.c, b.h, b.q);
  const player = addSphere(physics, { position: [PATROL[0][0], PATROL[0][1], 0], radius: 0.5, velocity: [0, 0, 0], response: 'slide', group: PLAYER });
  const enemies = Uint32Array.from(ENEMY_AT, ([x, y]) => addSphere(physics, { position: [x, y, 0], radius: 0.5, group: ENEMIES }));
  const { Position: p, Velocity: v } = physics.components;

  const hit: QueryHit = { entity: 0, distance: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };
  const filter = { mask: WALLS | PLAYER };
  const origin: [number, number, number] = [0, 0, 0], dir: [number, number, number] = [0, 0, 0];
  const sees = new Uint8Array(enemies.length);
  const lines = createDebugLines(4 * enemies.length);
  const labels: Label[] = [];
  const input = { x: 0, y: 0, idle: AUTO_AFTER_TICKS };
  let waypoint = 1;

  function steer(): void {
    let x = input.x, y = input.y;
    if (input.idle >= AUTO_AFTER_TICKS) {
      const [tx, ty] = PATROL[waypoint];
      x = tx - p.x[player];
      y = ty - p.y[player];
      if (Math.hypot(x, y) < 0.3) waypoint = (waypoint + 1) % PATROL.length;
    } else input.idle++;
    const l = Math.hypot(x, y);
    v.x[player] = l > 0 ? (SPEED * x) / l : 0;
    v.y[player] = l > 0 ? (SPEED * y) / l : 0;
    v.z[player] = 0;
  }

  /** One ray per enemy toward the player's centre: lines and labels. */
  function look(): void {
    lines.count = 0;
    labels.length = 0;
    for (let i = 0; i < enemies.length; i++) {
      const e = enemies[i];
      origin[0] = p.x[e];
      origin[1] = p.y[e];
      origin[2] = 0;
      dir[0] = p.x[player] - origin[0];
      dir[1] = p.y[player] - origin[1];
      dir[2] = 0;
      const d = Math.hypot(dir[0], dir[1]);
      const any = castRay(physics, origin, dir, d, hit, filter);
      sees[i] = any && hit.entity === player ? 1 : 0;
      if (sees[i] === 1) pushLine(lines, origin[0], origin[1], 0, p.x[player], p.y[player], 0, COLORS.seen);
      else {
        const hx = hit.point.x, hy = hit.point.y;
        pushLine(lines, origin[0], origin[1], 0, hx, hy, 0, COLORS.blocked);
        pushLine(lines, hx - 0.3, hy - 0.3, 0, hx + 0.3, hy + 0.3, 0, COLORS.blocked);
        pushLine(lines, hx - 0.3, hy + 0.3, 0, hx + 0.3, hy - 0.3, 0, COLORS.blocked);
      }
      labels.push({ x: origin[0], y: origin[1] + 0.9, z: 0, text: sees[i] === 1 ? 'sees you' : 'blocked', color: sees[i] === 1 ? COLORS.seen : COLORS.blocked });
    }
    labels.push({ x: p.x[player], y: p.y[player] - 1.3, z: 0, text: 'you', color: COLORS.player });
  }

  const seeing = () => sees.reduce((n, s) => n + s, 0);
  look();
  return {
    world,
    physics,
    player,
    enemies,
    sees,
    spheres: Uint32Array.of(player, ...enemies),
    boxes: Uint32Array.from(boxes),
    tick() {
      steer();
      step(physics);
      look();
    },
    setInput(x, y) {
      input.x = x;
      input.y = y;
      if (x !== 0 || y !== 0) input.idle = 0;
    },
    color: (e) => (e === player ? COLORS.player : enemies.includes(e) ? COLORS.enemy : COLORS.staticBox),
    lines,
    labels: () => labels,
    figures: () => ({ enemies: enemies.length, seeing: seeing(), auto: input.idle >= AUTO_AFTER_TICKS ? 1 : 0, playerX: p.x[player], playerY: p.y[player] }),
    status: () =>
      `enemies that see you: ${seeing()} of ${enemies.length} (one castRay each per tick)\n` +
      `red: clear line of sight · grey ✕: a wall blocks it\n` +
      (input.idle >= AUTO_AFTER_TICKS ? 'patrolling; arrows / WASD to walk' : 'arrows / WASD: walk'),
    bounds2d: [-HALF_W - 1, -HALF_H - 1, HALF_W + 1, HALF_H + 1],
    camera3d: { eye: [0, -26, 30], target: [0, 0, 0] },
  };
}
