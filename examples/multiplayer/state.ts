/**
 * The room's Colyseus Schema state: what changes rarely and is for display (who is in the room,
 * which sphere is theirs, which process hosts the room). Patched at Colyseus's patch rate (20 Hz),
 * not per tick; nothing in it feeds the simulation (the tick messages of wire.ts do).
 */
import { schema, t, type SchemaType } from '@colyseus/schema';

export const Player = schema({
  /** The player's sphere (entity id), 0 until it has spawned. */
  eid: t.uint32(),
  name: t.string(),
  /** The tick at which the sphere spawned. */
  spawnedAt: t.uint32(),
}, 'Player');
export type Player = SchemaType<typeof Player>;

export const ArenaState = schema({
  players: t.map(Player),
  /** Colyseus process id of the process that hosts the room. */
  processId: t.string(),
  /** Bodies of the scene (walls, pillars, moving boxes, balls), without the players. */
  bodies: t.uint32(),
}, 'ArenaState');
export type ArenaState = SchemaType<typeof ArenaState>;
