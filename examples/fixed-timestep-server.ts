/**
 * An authoritative server loop hosting several rooms at once. Each room is its own bitecs world
 * with its own physics instance (storage belongs to the instance, so rooms never share state).
 * One fixed stepper turns the server clock into whole 1/60 s ticks; every room steps once per tick.
 * Each second of simulated time the server prints, per room, the contacts of that second and the
 * state hash (what it would send to clients for desync detection).
 *
 * A client-side replica of room "alpha" is simulated independently from the same seed; its hashes
 * must equal the server's (the simulation is deterministic), which the example checks every second.
 * Room "gamma" gets a late joiner (a sphere added mid-game), which the server applies between ticks.
 *
 * The clock is simulated by default (irregular event-loop wake-ups, instant and reproducible).
 * Pass --realtime to pace the loop with real timers instead (takes SECONDS seconds).
 *
 * Run: npx tsx examples/fixed-timestep-server.ts [--realtime]
 */
import {
  addSphere,
  ContactFlags,
  createFixedStepper,
  fixedStepAdvance,
  hashPhysicsState,
  type FixedStepper,
} from '../src/index.js';
import { buildArena, type Arena } from '../src/scenes/buildArena.js';
import { createRng } from '../src/scenes/prng.js';

const TICK_RATE = 60;
const SECONDS = 3;

interface Room {
  name: string;
  arena: Arena;
  /** Contacts and began contacts since the last report. */
  contacts: number;
  began: number;
}

function createRoom(name: string, seed: number, spheres: number): Room {
  // Spheres collide with boxes and with each other in these rooms.
  const arena = buildArena({ spheres, seed, sphereSphere: true, physics: { dt: 1 / TICK_RATE } });
  return { name, arena, contacts: 0, began: 0 };
}

/** One server tick of one room: step, then tally this tick's contacts. */
function tickRoom(room: Room): void {
  room.arena.tick();
  const c = room.arena.physics.contacts;
  room.contacts += c.count;
  for (let i = 0; i < c.count; i++) if ((c.flags[i] & ContactFlags.BEGAN) !== 0) room.began++;
}

/** A player joins room gamma at tick 90 (1.5 s): a fast sphere thrown into the middle. */
function applyEvents(rooms: Room[], tick: number): void {
  if (tick !== 90) return;
  const gamma = rooms.find((r) => r.name === 'gamma')!;
  const c = gamma.arena.spec.size / 2;
  const eid = addSphere(gamma.arena.physics, { position: [c, c, c], velocity: [25, 0, 0], radius: 1 });
  console.log(`  [tick ${tick}] a player joined room gamma as entity ${eid}`);
}

/** Server clock wake-ups: irregular gaps of 5–25 ms, like a busy event loop. */
function* simulatedClock(seconds: number): Generator<number> {
  const rng = createRng(99);
  for (let t = 0; t < seconds; ) {
    const gap = rng.range(0.005, 0.025);
    t += gap;
    yield gap;
  }
}

async function* realClock(seconds: number): AsyncGenerator<number> {
  const start = performance.now();
  let last = start;
  while (last - start < seconds * 1000) {
    await new Promise((r) => setTimeout(r, 1000 / TICK_RATE / 2));
    const now = performance.now();
    yield (now - last) / 1000;
    last = now;
  }
}

function report(second: number, rooms: Room[], replica: Room): boolean {
  console.log(`t=${second} s`);
  for (const room of rooms) {
    console.log(`  room ${room.name.padEnd(5)} contacts ${String(room.contacts).padStart(6)} (began ${String(room.began).padStart(4)})  hash ${hashPhysicsState(room.arena.physics)}`);
    room.contacts = 0;
    room.began = 0;
  }
  const ok = hashPhysicsState(replica.arena.physics) === hashPhysicsState(rooms[0].arena.physics);
  console.log(`  client replica of alpha: ${ok ? 'in sync' : 'DESYNC'}`);
  return ok;
}

async function main(): Promise<void> {
  const realtime = process.argv.includes('--realtime');
  const rooms = [createRoom('alpha', 1, 400), createRoom('beta', 2, 600), createRoom('gamma', 3, 300)];
  const replica = createRoom('alpha', 1, 400);
  const stepper: FixedStepper = createFixedStepper({ dt: 1 / TICK_RATE, maxSubSteps: 4 });
  console.log(`server: ${rooms.length} rooms at ${TICK_RATE} Hz for ${SECONDS} s (${realtime ? 'real' : 'simulated'} clock)`);
  let tick = 0;
  let inSync = true;
  const onTick = () => {
    applyEvents(rooms, tick);
    for (const room of rooms) tickRoom(room);
    tickRoom(replica);
    tick++;
    if (tick % TICK_RATE === 0) inSync = report(tick / TICK_RATE, rooms, replica) && inSync;
  };
  const clock = realtime ? realClock(SECONDS) : simulatedClock(SECONDS);
  for await (const elapsed of clock) {
    fixedStepAdvance(stepper, elapsed, onTick);
    if (tick >= SECONDS * TICK_RATE) break;
  }
  console.log(`server: ${tick} ticks, dropped ${stepper.droppedTime.toFixed(3)} s; replica ${inSync ? 'in sync every second' : 'DESYNCED'}`);
  if (!inSync) process.exitCode = 1;
}

await main();
