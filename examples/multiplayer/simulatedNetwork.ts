/**
 * The predicting client on a simulated network, for figures that the machine's load does not bend:
 * one process, a virtual clock in 1 ms steps, no sockets. A server loop (the room's tick as in
 * room.ts: spawns, the inputs that name the tick, step, hash, one `S_TICK` message, with sim.ts and
 * wire.ts) runs at exactly 60 Hz of virtual time; messages each way are held half the round trip
 * ± the jitter (in order); the measured `PredictedClient` (attached to a stand-in for the Colyseus
 * room, with the round trip known) is updated every 4 virtual ms; its re-simulation is timed in CPU
 * time. The 3 other players hold a stick and change it about twice a second (the server applies it
 * every tick, as from clients sending it every tick with enough lead); the measured client changes
 * its own about twice a second.
 *
 * Virtual time never waits for the CPU: the client never falls behind, so rollbacks per second,
 * re-simulated ticks and late inputs are those of the algorithm at that round trip; the CPU figure
 * is this machine's (inflated by other processes as any CPU time is).
 */
import { createRng } from '../../src/scenes/prng.js';
import { PredictedClient } from './predictedClient.js';
import { createSceneSim, hashWords, saveJoinState, spawnPlayer, spawnPoint, steerPlayer, TICK_RATE } from './sim.js';
import { C_INPUT, S_JOIN, S_TICK, tickBegin, tickEnd, tickWriterCreate, writeSteer } from './wire.js';

const TICK_MS = 1000 / TICK_RATE;

export interface SimulatedRow {
  rttMs: number;
  seconds: number;
  rollbacksPerSecond: number;
  resimMean: number;
  resimP99: number;
  resimCpuMsPerSecond: number;
  bytesInPerSecond: number;
  bytesOutPerSecond: number;
  checked: number;
  matched: number;
  inputsLate: number;
  inputsSent: number;
  leadMean: number;
}

interface Held {
  at: number;
  type: number;
  bytes: Uint8Array;
}

/** Per direction: messages in order, each held `hold()` ms but never before the one ahead. */
class Lane {
  readonly queue: Held[] = [];
  private last = 0;
  constructor(private readonly hold: () => number) {}
  push(now: number, type: number, bytes: Uint8Array): void {
    this.last = Math.max(this.last, now + this.hold());
    this.queue.push({ at: this.last, type, bytes: bytes.slice() });
  }
  due(now: number, deliver: (h: Held) => void): void {
    while (this.queue.length > 0 && this.queue[0].at <= now) deliver(this.queue.shift()!);
  }
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Runs `seconds` of virtual time (after 3 s of warm-up) at `rttMs` ± `jitterMs` per direction. */
export function measureSimulated(rttMs: number, bodies: number, seconds: number, jitterMs = 5, seed = 1): SimulatedRow {
  const rng = createRng(seed + 7);
  const hold = () => Math.max(0, rttMs / 2 + (jitterMs > 0 ? rng.range(-jitterMs, jitterMs) : 0));
  const down = new Lane(hold), up = new Lane(hold);
  let now = 0;
  // ---- The server ----
  const server = createSceneSim({ bodies, seed });
  const writer = tickWriterCreate();
  const hashes = new Uint32Array(2);
  const inputs = new Map<number, { dx: number; dz: number }>(); // the measured client's, by tick
  const spawnAt = { x: 0, z: 0 };
  const players: number[] = [];
  for (let k = 0; k < 4; k++) {
    spawnPoint(server, k, spawnAt);
    players.push(spawnPlayer(server, spawnAt.x, spawnAt.z));
  }
  server.step();
  const mine = players[0];
  const bots = players.slice(1).map((eid, i) => ({ eid, dx: 0, dz: 0, rng: createRng(seed * 10 + i) }));
  // ---- The client, on a stand-in for the Colyseus room ----
  const handlers = new Map<number, (bytes: Uint8Array) => void>();
  const events: { onmessage?: (ev: { data: ArrayBuffer }) => void } = {};
  const room = {
    sessionId: 'measured',
    connection: { events, isOpen: true },
    state: { players: new Map([['measured', { eid: mine }]]) },
    onMessage: (type: number, cb: (bytes: Uint8Array) => void) => void handlers.set(type, cb),
    sendBytes: (type: number, bytes: Uint8Array) => up.push(now, type, bytes),
    ping: () => {},
    leave: async () => {},
  };
  const stickRng = createRng(seed + 100);
  const client = PredictedClient.attach(room as unknown as Parameters<typeof PredictedClient.attach>[0], {
    endpoint: '', fixedRttMs: rttMs, now: () => now, clock: cpuMs, reportHashes: true, depth: 48,
    onConfirmed: (c) => {
      if (stickRng.next() < 2 / 60) c.setStick(stickRng.range(-127, 127), stickRng.range(-127, 127));
    },
  });
  const deliver = (h: Held) => {
    events.onmessage?.({ data: new ArrayBuffer(h.bytes.byteLength + 2) }); // framing: the SDK adds 2 bytes
    handlers.get(h.type)?.(h.bytes);
  };
  down.push(now, S_JOIN, saveJoinState(server));
  const serverTick = () => {
    const n = server.physics.tick;
    tickBegin(writer);
    for (const b of bots) {
      if (b.rng.next() < 2 / 60) {
        b.dx = Math.round(b.rng.range(-127, 127));
        b.dz = Math.round(b.rng.range(-127, 127));
      }
      steerPlayer(server, b.eid, b.dx, b.dz);
      writeSteer(writer, b.eid, b.dx, b.dz);
    }
    const own = inputs.get(n);
    if (own !== undefined) {
      steerPlayer(server, mine, own.dx, own.dz);
      writeSteer(writer, mine, own.dx, own.dz);
      inputs.delete(n);
    }
    server.step();
    hashWords(server.physics, hashes, 0);
    down.push(now, S_TICK, tickEnd(writer, server.physics.tick, hashes[0], hashes[1]));
  };
  const onServer = (h: Held) => {
    if (h.type !== C_INPUT) return;
    const v = new DataView(h.bytes.buffer, h.bytes.byteOffset, h.bytes.byteLength);
    const tick = v.getUint32(0, true);
    if (tick >= server.physics.tick) inputs.set(tick, { dx: v.getInt8(4), dz: v.getInt8(5) });
  };
  const firstTickAt = now;
  let ticksRun = 0;
  let leadSum = 0, leadN = 0;
  let before: { stats: typeof client.stats; hist: number[]; frames: number; sent: number } | undefined;
  const total = (3 + seconds) * 1000;
  for (now = 0; now <= total; now++) {
    while (firstTickAt + (ticksRun + 1) * TICK_MS <= now) {
      ticksRun++;
      serverTick();
    }
    up.due(now, onServer);
    down.due(now, deliver);
    if (now % 4 === 0) {
      client.update(now);
      if (before !== undefined && client.sim !== undefined) {
        leadSum += client.predictedTick - client.confirmedTick;
        leadN++;
      }
    }
    if (now === 3000) before = { stats: { ...client.stats }, hist: [...client.stats.resimHistogram], frames: client.bytes.frames, sent: client.bytes.sent };
  }
  const s = client.stats, b = before!;
  const rollbacks = s.rollbacks - b.stats.rollbacks;
  const hist = s.resimHistogram.map((x, i) => (x ?? 0) - (b.hist[i] ?? 0));
  const n = hist.reduce((a, x) => a + x, 0);
  let seen = 0, p99 = 0;
  for (let i = 0; i < hist.length; i++) {
    seen += hist[i] ?? 0;
    if (seen >= 0.99 * n) {
      p99 = i;
      break;
    }
  }
  void client.leave();
  return {
    rttMs,
    seconds,
    rollbacksPerSecond: rollbacks / seconds,
    resimMean: (s.resimulated - b.stats.resimulated) / Math.max(1, rollbacks),
    resimP99: p99,
    resimCpuMsPerSecond: (s.resimMs - b.stats.resimMs) / seconds,
    bytesInPerSecond: (client.bytes.frames - b.frames) / seconds,
    bytesOutPerSecond: (client.bytes.sent - b.sent) / seconds,
    checked: s.checked - b.stats.checked,
    matched: s.matched - b.stats.matched,
    inputsLate: s.inputsLate - b.stats.inputsLate,
    inputsSent: s.inputsSent - b.stats.inputsSent,
    leadMean: leadSum / Math.max(1, leadN),
  };
}
