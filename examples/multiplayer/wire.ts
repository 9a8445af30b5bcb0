/**
 * The wire format between the arena room and its clients (all integers little-endian). See
 * docs/multiplayer.md for the reasons and the measured sizes.
 *
 * Server → client, as Colyseus byte messages (`broadcastBytes` / `client.sendBytes`):
 * - `S_TICK`, every tick: u32 tick (the state's tick after the step), u32 × 2 state hash, u16 event
 *   count, then the tick's events in the order the server applied them before the step:
 *   `EV_SPAWN` u8 kind, u32 eid, f64 x, f64 z (21 bytes); `EV_STEER` u8 kind, u32 eid, i8 dx,
 *   i8 dz (7 bytes); `EV_DESPAWN` u8 kind, u32 eid (5 bytes). 14 bytes with no event.
 * - `S_JOIN`: the join state of sim.ts (`saveJoinState`), on join and on a resync request.
 * Server → client, as a Colyseus message (msgpack): `S_NOTICE` {@link Notice}: a rejected or dropped
 * message, or a reported hash that differs from the server's.
 *
 * Client → server, as byte messages (`room.sendBytes`):
 * - `C_INPUT`: u32 tick, i8 dx, i8 dz (6 bytes): steer my sphere at that tick (−127 … 127 per axis).
 * - `C_HASH`: u32 tick, u32 × 2 hash (12 bytes): my replica's hash after that tick.
 * - `C_RESYNC`: no payload: send me the join state again.
 * @module
 */
import { type Sim, despawnPlayer, spawnPlayer, steerPlayer } from './sim.js';

export const S_TICK = 1;
export const S_JOIN = 2;
export const S_NOTICE = 3;
export const C_INPUT = 11;
export const C_HASH = 12;
export const C_RESYNC = 13;

export const EV_SPAWN = 1;
export const EV_STEER = 2;
export const EV_DESPAWN = 3;

export const TICK_HEADER = 14;
export const INPUT_BYTES = 6;
export const HASH_BYTES = 12;

export type Notice =
  | { kind: 'rejected'; reason: 'late' | 'ahead' | 'malformed' | 'unknown-type' | 'too-soon'; detail: string }
  | { kind: 'dropped'; reason: 'flood'; detail: string }
  | { kind: 'desync'; tick: number; server: string; client: string };

/** A growable tick-message writer (one per room; no allocation per tick once grown). */
export interface TickWriter {
  bytes: Uint8Array;
  view: DataView;
  length: number;
  events: number;
}

export function tickWriterCreate(capacity = 256): TickWriter {
  const bytes = new Uint8Array(capacity);
  return { bytes, view: new DataView(bytes.buffer), length: TICK_HEADER, events: 0 };
}

function reserve(w: TickWriter, n: number): void {
  if (w.length + n <= w.bytes.length) return;
  let cap = w.bytes.length * 2;
  while (cap < w.length + n) cap *= 2;
  const next = new Uint8Array(cap);
  next.set(w.bytes.subarray(0, w.length));
  w.bytes = next;
  w.view = new DataView(next.buffer);
}

export function tickBegin(w: TickWriter): void {
  w.length = TICK_HEADER;
  w.events = 0;
}

export function writeSpawn(w: TickWriter, eid: number, x: number, z: number): void {
  reserve(w, 21);
  w.view.setUint8(w.length, EV_SPAWN);
  w.view.setUint32(w.length + 1, eid, true);
  w.view.setFloat64(w.length + 5, x, true);
  w.view.setFloat64(w.length + 13, z, true);
  w.length += 21;
  w.events++;
}

export function writeSteer(w: TickWriter, eid: number, dx: number, dz: number): void {
  reserve(w, 7);
  w.view.setUint8(w.length, EV_STEER);
  w.view.setUint32(w.length + 1, eid, true);
  w.view.setInt8(w.length + 5, dx);
  w.view.setInt8(w.length + 6, dz);
  w.length += 7;
  w.events++;
}

export function writeDespawn(w: TickWriter, eid: number): void {
  reserve(w, 5);
  w.view.setUint8(w.length, EV_DESPAWN);
  w.view.setUint32(w.length + 1, eid, true);
  w.length += 5;
  w.events++;
}

/** Writes the header (tick after the step, hash) and returns the finished message. */
export function tickEnd(w: TickWriter, tick: number, hashHi: number, hashLo: number): Uint8Array {
  w.view.setUint32(0, tick, true);
  w.view.setUint32(4, hashHi, true);
  w.view.setUint32(8, hashLo, true);
  w.view.setUint16(12, w.events, true);
  return w.bytes.subarray(0, w.length);
}

export interface TickHeader {
  tick: number;
  hashHi: number;
  hashLo: number;
  events: number;
}

export function readTickHeader(bytes: Uint8Array, out: TickHeader): boolean {
  if (bytes.byteLength < TICK_HEADER) return false;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  out.tick = v.getUint32(0, true);
  out.hashHi = v.getUint32(4, true);
  out.hashLo = v.getUint32(8, true);
  out.events = v.getUint16(12, true);
  return true;
}

/**
 * Applies the events of a tick message to a replica, as the server did. Returns false when the
 * message is malformed or a spawn gave a different entity id than the server's (a desync).
 */
export function applyTickEvents(sim: Sim, bytes: Uint8Array, events: number): boolean {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = TICK_HEADER;
  for (let i = 0; i < events; i++) {
    if (at + 5 > bytes.byteLength) return false;
    const kind = v.getUint8(at);
    const eid = v.getUint32(at + 1, true);
    if (kind === EV_SPAWN) {
      if (at + 21 > bytes.byteLength) return false;
      if (spawnPlayer(sim, v.getFloat64(at + 5, true), v.getFloat64(at + 13, true)) !== eid) return false;
      at += 21;
    } else if (kind === EV_STEER) {
      if (at + 7 > bytes.byteLength) return false;
      steerPlayer(sim, eid, v.getInt8(at + 5), v.getInt8(at + 6));
      at += 7;
    } else if (kind === EV_DESPAWN) {
      despawnPlayer(sim, eid);
      at += 5;
    } else return false;
  }
  return at === bytes.byteLength;
}

export function encodeInput(tick: number, dx: number, dz: number): Uint8Array {
  const b = new Uint8Array(INPUT_BYTES);
  const v = new DataView(b.buffer);
  v.setUint32(0, tick, true);
  v.setInt8(4, dx);
  v.setInt8(5, dz);
  return b;
}

export function encodeHash(tick: number, hashHi: number, hashLo: number): Uint8Array {
  const b = new Uint8Array(HASH_BYTES);
  const v = new DataView(b.buffer);
  v.setUint32(0, tick, true);
  v.setUint32(4, hashHi, true);
  v.setUint32(8, hashLo, true);
  return b;
}

export function hex(hi: number, lo: number): string {
  return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
}
