/**
 * The arena simulation shared by the server room and every client replica: one bitecs world and one
 * physics instance, stepped by one pipe of systems, changed only by the events of a tick (spawn,
 * steer, despawn), so that the same events at the same ticks give bit-identical states.
 *
 * The arena is flat: every body's centre is at y = 0 and every velocity has y = 0, so the game
 * plays in the x–z plane (length units, seconds; velocities in units per second). Four static walls
 * enclose a square of half side `half`; inside are static pillars (some rotated about y), moving boxes
 * that patrol (reverse at the patrol bound), balls, and the players' characters (spheres).
 *
 * Per tick: hold the steer → broadphase → narrowphase (sphere–box and sphere–sphere contacts, the
 * module's collision response, docs/response.md, and its character controller, docs/character.md)
 * → integrate → restore the steer → `patrol`. Balls are dynamic spheres (the Response component)
 * that `'bounce'` with restitution 1 (elastic, so the arena never runs down). Players are characters
 * (`addCharacter`): collide-and-slide, so a player steered into a wall, a pillar or another player
 * keeps the part of its stick along the surface and glides along it; characters are not pushed (a
 * ball that hits one bounces off it). A player's Velocity between ticks is its steer, held across
 * the step (`createSteerHold`). Boxes have no Response: walls and pillars are static, moving
 * boxes kinematic (they push spheres and are never pushed). State updates use + − × ÷ only (no
 * Math.random, no sin/cos/pow); the scene is built on the server from a seeded PRNG and reaches
 * clients as a snapshot (with the body manifest, which carries the Response and Character components).
 *
 * Run nothing here: the room (room.ts) and the client (client.ts) use it.
 */
import { createWorld, pipe, query, type World } from 'bitecs';
import {
  addBox,
  addCharacter,
  addSphere,
  bodyManifestSize,
  createBroadphaseSystem,
  createIntegrateSystem,
  createNarrowphaseSystem,
  createPhysics,
  entityIdsSize,
  removeBody,
  restoreBodyManifest,
  restoreEntityIds,
  restoreSnapshot,
  saveBodyManifest,
  saveEntityIds,
  saveSnapshot,
  snapshotSize,
  type Physics,
  type PhysicsOptions,
  hashPhysicsStateWords,
} from '../../src/index.js';
import { createRng, type Rng } from '../../src/scenes/prng.js';

export const TICK_RATE = 60;
export const DT = 1 / TICK_RATE;
/** The options of every physics instance of the game, server and clients alike. */
export const PHYSICS_OPTIONS: PhysicsOptions = { dt: DT };
export const PLAYER_RADIUS = 0.5;
/** Full-stick player speed, units per second; an input axis of k (−127 … 127) gives k · STEER. */
export const PLAYER_SPEED = 6;
const STEER = PLAYER_SPEED / 127;
/** Grid pitch of the initial layout (one body per cell, jittered), units. */
const PITCH = 3;
/** Balls bounce elastically (no gravity in the flat arena: every impact bounces). */
const BALL = { response: 'bounce', restitution: 1 } as const;
const WALL = 1;

export interface SceneOptions {
  /** Bodies of the scene before any player joins: walls, pillars, moving boxes and balls (>= 8). */
  bodies: number;
  seed: number;
}

export interface Sim {
  readonly world: World;
  readonly physics: Physics;
  /** Half side of the playing square (the walls' inner faces), units. */
  readonly half: number;
  /** One tick: the systems of `createSimPipe`. */
  step(): void;
}

/**
 * The module's three systems (the narrowphase runs the collision response of the dynamic spheres
 * and the character controller of the players), with the players' steer held around them, then the
 * game's patrol.
 */
export function createSimPipe(physics: Physics, half: number): (world: World) => World {
  const hold = createSteerHold(physics);
  return pipe(
    hold.keep,
    createBroadphaseSystem(physics),
    createNarrowphaseSystem(physics),
    createIntegrateSystem(physics),
    hold.restore,
    createPatrolSystem(physics, half - 2),
  );
}

/**
 * Holds each player's steer across the tick. A character's Velocity is its desired velocity for the
 * tick, and the controller writes back the velocity it actually had (docs/character.md): pressed
 * into a wall, a pillar or another player, the slid or zero velocity would replace the stick until
 * the next steer event. `keep` copies every character's Velocity (the steer: the last steer event,
 * units per second, world frame) before the module's systems, `restore` writes it back after them,
 * so between ticks a player's Velocity is always its steer. It lives in Velocity, hence in the
 * snapshot, the join state, the rollback ring and the state hash, and every replica that steps
 * through this pipe applies it at every tick. The copy is per-tick scratch of this pipe (written
 * before it is read, every tick), grown by doubling with the component capacity.
 */
function createSteerHold(physics: Physics): { keep: (world: World) => World; restore: (world: World) => World } {
  const { Character, Velocity: V } = physics.components;
  const held = { v: new Float64Array(0) };
  const keep = (world: World): World => {
    const n = V.x.length;
    if (held.v.length < 3 * n) held.v = new Float64Array(Math.max(3 * n, 2 * held.v.length));
    const h = held.v;
    for (const e of query(world, [Character])) {
      h[3 * e] = V.x[e];
      h[3 * e + 1] = V.y[e];
      h[3 * e + 2] = V.z[e];
    }
    return world;
  };
  const restore = (world: World): World => {
    const h = held.v;
    for (const e of query(world, [Character])) {
      V.x[e] = h[3 * e];
      V.y[e] = h[3 * e + 1];
      V.z[e] = h[3 * e + 2];
    }
    return world;
  };
  return { keep, restore };
}

function simOf(world: World, physics: Physics, half: number): Sim {
  const tick = createSimPipe(physics, half);
  return { world, physics, half, step: () => void tick(world) };
}

/** Moving boxes reverse a velocity component when their centre passes ±bound on that axis. */
function createPatrolSystem(physics: Physics, bound: number): (world: World) => World {
  const { Box, Position: P, Velocity: V } = physics.components;
  return (world) => {
    for (const e of query(world, [Box, V])) {
      if ((P.x[e] > bound && V.x[e] > 0) || (P.x[e] < -bound && V.x[e] < 0)) V.x[e] = -V.x[e];
      if ((P.z[e] > bound && V.z[e] > 0) || (P.z[e] < -bound && V.z[e] < 0)) V.z[e] = -V.z[e];
    }
    return world;
  };
}

// ---- The scene (server only: clients receive it as a snapshot) ---------------------------------

/** A rotation about y by a random angle, without trigonometry: normalise (0, s, 0, c). */
function yawQuat(rng: Rng): [number, number, number, number] {
  const s = rng.range(-1, 1), c = rng.range(0.2, 1);
  const inv = 1 / Math.sqrt(s * s + c * c);
  return [0, s * inv, 0, c * inv];
}

/**
 * Builds the arena: 4 walls, pillars and moving boxes (1 in 40 bodies each, at least 1), and balls
 * for the rest, one per cell of a jittered grid (no initial overlap), in shuffled order.
 */
export function createSceneSim(o: SceneOptions): Sim {
  const rng = createRng(o.seed);
  const n = Math.max(8, Math.floor(o.bodies));
  const pillars = Math.max(1, Math.floor(n / 40));
  const movers = Math.max(1, Math.floor(n / 40));
  const items = n - 4;
  let side = 1;
  while (side * side < items + 4) side++; // + 4 free cells for spawns
  const half = (side * PITCH) / 2;
  const world = createWorld();
  const physics = createPhysics(world, PHYSICS_OPTIONS);
  const span = half + 2 * WALL;
  addBox(physics, { position: [half + WALL, 0, 0], halfExtents: [WALL, 2, span] });
  addBox(physics, { position: [-half - WALL, 0, 0], halfExtents: [WALL, 2, span] });
  addBox(physics, { position: [0, 0, half + WALL], halfExtents: [span, 2, WALL] });
  addBox(physics, { position: [0, 0, -half - WALL], halfExtents: [span, 2, WALL] });
  const kinds: number[] = [];
  for (let i = 0; i < items; i++) kinds.push(i < pillars ? 1 : i < pillars + movers ? 2 : 0);
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
  }
  for (let i = 0; i < items; i++) {
    const cell = i + 4; // cells 0..3 stay free for spawns
    const x = -half + PITCH * ((cell % side) + 0.5) + rng.range(-0.4, 0.4);
    const z = -half + PITCH * (Math.floor(cell / side) + 0.5) + rng.range(-0.4, 0.4);
    if (kinds[i] === 1) addBox(physics, { position: [x, 0, z], halfExtents: [rng.range(0.5, 1), 1, rng.range(0.5, 1)], rotation: yawQuat(rng) });
    else if (kinds[i] === 2) addBox(physics, { position: [x, 0, z], halfExtents: [0.8, 0.8, 0.8], velocity: [rng.range(-3, 3), 0, rng.range(-3, 3)] });
    else addSphere(physics, { position: [x, 0, z], radius: rng.range(0.3, 0.6), velocity: [rng.range(-4, 4), 0, rng.range(-4, 4)], ...BALL });
  }
  return simOf(world, physics, half);
}

/**
 * Where the k-th player spawns (k = 0, 1, …): in the free cells' row, x advancing 1.75 with k, in two
 * lanes along x, z = −half + 0.9 for even k and −half + 2.1 for odd k (1.2 apart, more than a
 * player's diameter; players k and k + 2 are 3.5 apart in x). Players are characters and do not
 * push each other: in one lane, a player steered along the row stopped against its neighbour 0.75
 * units away (the browser test's page).
 */
export function spawnPoint(sim: Sim, k: number, out: { x: number; z: number }): void {
  const lane = 2 * sim.half - 2;
  out.x = -sim.half + 1 + ((k * 1.75) % lane);
  out.z = -sim.half + (k % 2 === 0 ? 0.9 : 2.1);
}

// ---- Events (the only changes besides stepping; server and replicas apply the same) ------------

/** Adds a player's character (a sphere moved by collide-and-slide) at rest at (x, 0, z); returns its entity id. */
export function spawnPlayer(sim: Sim, x: number, z: number): number {
  return addCharacter(sim.physics, { position: { x, y: 0, z }, radius: PLAYER_RADIUS });
}

/**
 * Sets a player's steer from an input (dx, dz in −127 … 127): Velocity := k · PLAYER_SPEED / 127 per
 * axis. The pipe holds it (createSteerHold): it is the desired velocity of every tick until the next steer.
 */
export function steerPlayer(sim: Sim, eid: number, dx: number, dz: number): void {
  const V = sim.physics.components.Velocity;
  V.x[eid] = dx * STEER;
  V.y[eid] = 0;
  V.z[eid] = dz * STEER;
}

export function despawnPlayer(sim: Sim, eid: number): void {
  removeBody(sim.physics, eid);
}

// ---- Join state: what a client needs to build its replica --------------------------------------

const JOIN_MAGIC = 0x314a504d; // "MPJ1"
/** Header: magic, tick, hash hi, hash lo (u32), half (f64), section sizes (3 u32), pad. */
export const JOIN_HEADER = 40;
const pad8 = (n: number) => Math.ceil(n / 8) * 8;

/** The hash of `physics` as two u32 words (the 16 hex digits of `hashPhysicsState`); allocates nothing. */
export function hashWords(physics: Physics, out: Uint32Array, at: number): void {
  hashPhysicsStateWords(physics, out, at);
}

const hashScratch = new Uint32Array(2);

/** Bytes of the join state of `sim` now. */
export function joinStateSize(sim: Sim): number {
  return JOIN_HEADER + pad8(entityIdsSize(sim.world)) + pad8(bodyManifestSize(sim.physics)) + snapshotSize(sim.physics);
}

/**
 * Writes the join state (entity ids, body manifest, physics snapshot, with the tick, hash and arena
 * size) into a new buffer. Taken between ticks: the state after tick `physics.tick`.
 */
export function saveJoinState(sim: Sim): Uint8Array {
  const out = new Uint8Array(joinStateSize(sim));
  const v = new DataView(out.buffer);
  hashWords(sim.physics, hashScratch, 0);
  let at = JOIN_HEADER;
  const ids = saveEntityIds(sim.world, out, at);
  at += pad8(ids);
  const bodies = saveBodyManifest(sim.physics, out, at);
  at += pad8(bodies);
  const snap = saveSnapshot(sim.physics, out, at);
  v.setUint32(0, JOIN_MAGIC, true);
  v.setUint32(4, sim.physics.tick, true);
  v.setUint32(8, hashScratch[0], true);
  v.setUint32(12, hashScratch[1], true);
  v.setFloat64(16, sim.half, true);
  v.setUint32(24, ids, true);
  v.setUint32(28, bodies, true);
  v.setUint32(32, snap, true);
  return out;
}

export interface JoinState {
  sim: Sim;
  /** The server's tick and hash of that state (the replica's own hash must equal it). */
  tick: number;
  hashHi: number;
  hashLo: number;
}

/** Builds a replica from join-state bytes (copied first: views need an 8-aligned buffer). */
export function loadJoinState(bytes: Uint8Array): JoinState {
  const buf = bytes.slice();
  const v = new DataView(buf.buffer);
  if (buf.byteLength < JOIN_HEADER || v.getUint32(0, true) !== JOIN_MAGIC) throw new Error('multiplayer: not a join state');
  const half = v.getFloat64(16, true);
  const ids = v.getUint32(24, true), bodies = v.getUint32(28, true);
  const world = createWorld();
  let at = JOIN_HEADER;
  restoreEntityIds(world, buf, at);
  at += pad8(ids);
  const physics = createPhysics(world, PHYSICS_OPTIONS);
  restoreBodyManifest(physics, buf, at);
  at += pad8(bodies);
  restoreSnapshot(physics, buf, at);
  return { sim: simOf(world, physics, half), tick: v.getUint32(4, true), hashHi: v.getUint32(8, true), hashLo: v.getUint32(12, true) };
}
