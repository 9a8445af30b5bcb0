/**
 * A client written from docs/multiplayer.md ("Writing a client from this page") alone: it imports
 * nothing else of the example (no sim.ts, wire.ts, client.ts), only the module, bitecs and the
 * Colyseus SDK, and uses the codes, layouts and rules as the page states them. The test
 * (test/multiplayer/docsClient.test.ts) runs it against a real server: it is the check that the page
 * says enough.
 */
import { Client } from '@colyseus/sdk';
import { createWorld, pipe, query, type World } from 'bitecs';
import {
  addCharacter, createBroadphaseSystem, createIntegrateSystem, createNarrowphaseSystem, createPhysics, hashPhysicsStateWords,
  removeBody, restoreBodyManifest, restoreEntityIds, restoreSnapshot, type Physics,
} from '../../src/index.js';

// The page's codes.
const S_TICK = 1, S_JOIN = 2, S_NOTICE = 3, C_HASH = 12;
const EV_SPAWN = 1, EV_STEER = 2, EV_DESPAWN = 3;

export interface DocsClient {
  /** The tick of the first join state. */
  joinTick: number;
  joins: number;
  joinsMatched: number;
  checked: number;
  matched: number;
  firstMismatch: number;
  leave(): Promise<void>;
}

/**
 * Joins room `roomId` through `endpoint` and keeps a replica, checking each tick's hash; `patrol`
 * false leaves out the game's patrol rule (the regression test shows that such a client desyncs).
 */
export async function docsClient(endpoint: string, roomId: string, patrol: boolean): Promise<DocsClient> {
  const room = await new Client(endpoint).joinById(roomId, { name: patrol ? 'docs' : 'docs-no-patrol' });
  const out: DocsClient = { joinTick: -1, joins: 0, joinsMatched: 0, checked: 0, matched: 0, firstMismatch: -1, leave: async () => void (await room.leave(true)) };
  let world: World | undefined, physics: Physics | undefined, tick: ((w: World) => World) | undefined;
  const words = new Uint32Array(2);
  room.onMessage(S_NOTICE, () => {}); // the desync notices of the client without the patrol rule
  room.onMessage(S_JOIN, (message: Uint8Array) => {
    const b = message.slice(); // 8-aligned copy
    const v = new DataView(b.buffer);
    if (v.getUint32(0, true) !== 0x314a504d) throw new Error('not a join state');
    const half = v.getFloat64(16, true);
    const ids = v.getUint32(24, true), manifest = v.getUint32(28, true);
    const pad8 = (n: number) => Math.ceil(n / 8) * 8;
    world = createWorld();
    restoreEntityIds(world, b, 40);
    physics = createPhysics(world, { dt: 1 / 60 });
    restoreBodyManifest(physics, b, 40 + pad8(ids));
    restoreSnapshot(physics, b, 40 + pad8(ids) + pad8(manifest));
    const p = physics;
    const { Box, Character, Position: P, Velocity: V } = p.components;
    const bound = half - 2;
    // The steer hold: every character's Velocity before the module's systems is written back after them.
    let held = new Float64Array(0);
    const keep = (w: World) => {
      if (held.length < 3 * V.x.length) held = new Float64Array(3 * V.x.length);
      for (const e of query(w, [Character])) {
        held[3 * e] = V.x[e];
        held[3 * e + 1] = V.y[e];
        held[3 * e + 2] = V.z[e];
      }
      return w;
    };
    const restore = (w: World) => {
      for (const e of query(w, [Character])) {
        V.x[e] = held[3 * e];
        V.y[e] = held[3 * e + 1];
        V.z[e] = held[3 * e + 2];
      }
      return w;
    };
    const patrolSystem = (w: World) => {
      for (const e of query(w, [Box, V])) {
        if ((P.x[e] > bound && V.x[e] > 0) || (P.x[e] < -bound && V.x[e] < 0)) V.x[e] = -V.x[e];
        if ((P.z[e] > bound && V.z[e] > 0) || (P.z[e] < -bound && V.z[e] < 0)) V.z[e] = -V.z[e];
      }
      return w;
    };
    const broad = createBroadphaseSystem(p), narrow = createNarrowphaseSystem(p), integrate = createIntegrateSystem(p);
    tick = patrol ? pipe(keep, broad, narrow, integrate, restore, patrolSystem) : pipe(keep, broad, narrow, integrate, restore);
    hashPhysicsStateWords(p, words, 0);
    out.joins++;
    if (out.joinTick < 0) out.joinTick = v.getUint32(4, true);
    if (words[0] === v.getUint32(8, true) && words[1] === v.getUint32(12, true)) out.joinsMatched++;
  });
  room.onMessage(S_TICK, (m: Uint8Array) => {
    if (physics === undefined || world === undefined || tick === undefined) return;
    const v = new DataView(m.buffer, m.byteOffset, m.byteLength);
    const n = v.getUint32(0, true);
    if (n <= physics.tick) return;
    if (n !== physics.tick + 1) throw new Error(`missed a tick: ${physics.tick} then ${n}`);
    const events = v.getUint16(12, true);
    const s = 6 / 127;
    let at = 14;
    for (let i = 0; i < events; i++) {
      const kind = v.getUint8(at), eid = v.getUint32(at + 1, true);
      if (kind === EV_SPAWN) {
        const x = v.getFloat64(at + 5, true), z = v.getFloat64(at + 13, true);
        if (addCharacter(physics, { position: { x, y: 0, z }, radius: 0.5 }) !== eid) throw new Error('spawn got another entity id');
        at += 21;
      } else if (kind === EV_STEER) {
        const V = physics.components.Velocity;
        V.x[eid] = v.getInt8(at + 5) * s;
        V.y[eid] = 0;
        V.z[eid] = v.getInt8(at + 6) * s;
        at += 7;
      } else if (kind === EV_DESPAWN) {
        removeBody(physics, eid);
        at += 5;
      } else throw new Error(`unknown event ${kind}`);
    }
    tick(world);
    hashPhysicsStateWords(physics, words, 0);
    out.checked++;
    if (words[0] === v.getUint32(4, true) && words[1] === v.getUint32(8, true)) out.matched++;
    else if (out.firstMismatch < 0) out.firstMismatch = n;
    const report = new Uint8Array(12);
    const r = new DataView(report.buffer);
    r.setUint32(0, n, true);
    r.setUint32(4, words[0], true);
    r.setUint32(8, words[1], true);
    room.sendBytes(C_HASH, report);
  });
  return out;
}

