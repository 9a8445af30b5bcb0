/**
 * Output of the headless runner: JSON Lines (one line per tick, then the summary) and the human
 * summary. Numbers in JSON are printed as JavaScript does (shortest round-trip), and -0 as 0.
 * @module
 */
import type { SceneContact } from '../scenes/sceneFile.js';

/** What a run measured. */
export interface RunSummary {
  /** "arena" or the scene file name. */
  scene: string;
  /** Arena seed (absent for scene files). */
  seed?: number;
  ticks: number;
  spheres: number;
  boxes: number;
  dt: number;
  continuous: boolean;
  contacts: { total: number; mean: number; max: number };
  msPerTick: { mean: number; median: number };
  /** `hashPhysicsState` after the last tick (16 hex digits). */
  hash: string;
}

/** Where the runner writes. `isTTY` of stderr decides how progress is shown. */
export interface RunIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

/** One JSON line (without the newline) for tick `tick`. */
export function formatTickLine(tick: number, contacts: readonly SceneContact[]): string {
  return JSON.stringify({ tick, contacts: contacts.map(orderedContact) });
}

/** Fixes the key order a, b, toi, depth, normal, point. */
function orderedContact(c: SceneContact): SceneContact {
  return { a: c.a, b: c.b, toi: c.toi, depth: c.depth, normal: c.normal, point: c.point };
}

/** The last JSON line (without the newline). */
export function formatSummaryLine(summary: RunSummary): string {
  return JSON.stringify({ summary });
}

function fixed(v: number, digits: number): string {
  return v.toFixed(digits);
}

/** The human summary, several lines ending with a newline. */
export function formatSummaryText(s: RunSummary): string {
  const title = s.seed === undefined ? `scene ${s.scene}` : `arena (seed ${s.seed})`;
  const rows: [string, string][] = [
    ['ticks', `${s.ticks} (dt ${+s.dt.toPrecision(6)} s, ${s.continuous ? 'continuous' : 'discrete'})`],
    ['spheres', String(s.spheres)],
    ['boxes', String(s.boxes)],
    ['contacts/tick', `mean ${fixed(s.contacts.mean, 2)}, max ${s.contacts.max} (total ${s.contacts.total})`],
    ['ms/tick', `mean ${fixed(s.msPerTick.mean, 3)}, median ${fixed(s.msPerTick.median, 3)}`],
    ['state hash', s.hash],
  ];
  return `bitecs-collide: ${title}\n${rows.map(([k, v]) => `  ${k.padEnd(14)}${v}\n`).join('')}`;
}
