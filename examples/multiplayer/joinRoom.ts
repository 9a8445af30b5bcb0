/**
 * Joining an arena room (`@colyseus/sdk` 0.18), shared by the follower client (client.ts) and the
 * predicting client (predictedClient.ts). Browser-safe: no Node imports, so the browser page's
 * bundle can use it.
 */
import { Client, type Room } from '@colyseus/sdk';
import { ArenaState } from './state.js';

/** How a client reaches its room: the part of the options the follower and the predicting client share. */
export interface RoomConnectOptions {
  /** The server's (or the delay proxy's) HTTP endpoint, e.g. `http://127.0.0.1:2567`. */
  endpoint: string;
  /** How to get a room (default `joinOrCreate`). */
  join?: 'joinOrCreate' | 'create' | { roomId: string };
  /** The room type to join or create (default `arena`). */
  roomName?: string;
  /** Options for a room this client creates: `bodies`, `seed`. */
  roomOptions?: { bodies?: number; seed?: number };
  name?: string;
}

/** Joins (or creates) an arena room through `o.endpoint`; resolves once the join is confirmed. */
export async function joinArenaRoom(o: RoomConnectOptions): Promise<Room<unknown, ArenaState>> {
  const sdk = new Client(o.endpoint);
  const options = { ...o.roomOptions, name: o.name };
  const how = o.join ?? 'joinOrCreate';
  const room = typeof how === 'object'
    ? await sdk.joinById<ArenaState>(how.roomId, options, ArenaState)
    : await sdk[how]<ArenaState>(o.roomName ?? 'arena', options, ArenaState);
  return room as Room<unknown, ArenaState>;
}
