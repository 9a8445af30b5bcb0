/**
 * Contact-set verification. Every implementation's contacts are recorded per *pose*: pose k is
 * where the peers are after k ticks (move, then detect). Ours detects before it moves, so its tick
 * k+1 reports pose k (we record one tick later); ours with continuous contacts reports at its tick
 * k+1 the pairs touching at any time of the motion from pose k to pose k+1.
 *
 * Differences against the reference are explained with the signed sphere–box gap recomputed here
 * in float64 (independently of the library) at that pose.
 */
import type { ArenaSpec } from '../src/scenes/arena.js';
import { moveSpheres, sphereBoxGap, sphereState } from './common.js';

/** Per pose k (index k), the sorted pair keys of one implementation (index 0 unused by peers). */
export type PairLog = (number[] | undefined)[];

export interface VerifyResult {
  reference: string;
  poses: number;
  /** Per implementation compared with the reference. */
  impls: Record<string, {
    countMismatchTicks: number;
    onlyHere: number;
    onlyInReference: number;
    /** Differing pairs within float32 rounding of touching (|gap| ≤ tol32). */
    float32Touching: number;
    /** Differing pairs exactly at touching in float64 (|gap| ≤ 1e-12 · L). */
    exactTouching: number;
    unexplained: number;
    worstUnexplainedGap: number;
  }>;
  continuous?: {
    /** Pairs touching at pose k or k+1 (ours static) missing from the swept set of tick k. */
    missing: number;
    missingExplained: number;
    /** Mean pairs per tick not touching at the start pose (found by the sweep). */
    extraVsStartPerTick: number;
    /** Mean pairs per tick touching neither at the start nor at the end pose (mid-motion only). */
    extraPerTick: number;
  };
  tol32: number;
}

function diff(a: number[], b: number[]): { onlyA: number[]; onlyB: number[] } {
  const sa = new Set(a), sb = new Set(b);
  return { onlyA: a.filter((k) => !sb.has(k)), onlyB: b.filter((k) => !sa.has(k)) };
}

export function verify(spec: ArenaSpec, logs: Record<string, PairLog>, poses: number, reference: string): VerifyResult {
  const m = spec.boxes.length;
  const tol32 = 2 ** -20 * (spec.size + 4);
  const tol64 = 1e-12 * (spec.size + 4);
  const truth = sphereState(spec);
  const gaps: ((key: number) => number)[] = [];
  // Replay the motion to know each pose (the same arithmetic as every implementation).
  const snapshot: Float64Array[] = [];
  for (let k = 0; k <= poses + 1; k++) {
    snapshot.push(Float64Array.from([...truth.px, ...truth.py, ...truth.pz]));
    moveSpheres(truth);
  }
  const n = truth.n;
  for (let k = 0; k <= poses + 1; k++) {
    const snap = snapshot[k];
    gaps.push((key) => {
      const i = Math.floor(key / m), b = key % m;
      truth.px[i] = snap[i];
      truth.py[i] = snap[n + i];
      truth.pz[i] = snap[2 * n + i];
      return sphereBoxGap(truth, i, spec.boxes[b]);
    });
  }
  const ref = logs[reference];
  const result: VerifyResult = { reference, poses, impls: {}, tol32 };
  for (const [id, log] of Object.entries(logs)) {
    if (id === reference || id === 'ours-continuous') continue;
    const r = { countMismatchTicks: 0, onlyHere: 0, onlyInReference: 0, float32Touching: 0, exactTouching: 0, unexplained: 0, worstUnexplainedGap: 0 };
    for (let k = 1; k <= poses; k++) {
      const a = log[k], b = ref[k];
      if (!a || !b) continue;
      if (a.length !== b.length) r.countMismatchTicks++;
      const d = diff(a, b);
      r.onlyHere += d.onlyA.length;
      r.onlyInReference += d.onlyB.length;
      for (const key of [...d.onlyA, ...d.onlyB]) {
        const g = Math.abs(gaps[k](key));
        if (g <= tol64) r.exactTouching++;
        else if (g <= tol32) r.float32Touching++;
        else {
          r.unexplained++;
          r.worstUnexplainedGap = Math.max(r.worstUnexplainedGap, g);
        }
      }
    }
    result.impls[id] = r;
  }
  const cont = logs['ours-continuous'], stat = logs['ours-static'];
  if (cont && stat) {
    let missing = 0, explained = 0, extra = 0, extraStart = 0, ticks = 0;
    for (let k = 1; k <= poses; k++) {
      const c = cont[k], s0 = stat[k], s1 = stat[k + 1];
      if (!c || !s0 || !s1) continue;
      ticks++;
      const cs = new Set(c);
      const both = new Set([...s0, ...s1]);
      for (const key of both) {
        if (cs.has(key)) continue;
        missing++;
        // A pair that only touches (to rounding) at the end pose may be missed by the sweep's rounding.
        if (Math.min(Math.abs(gaps[k](key)), Math.abs(gaps[k + 1](key))) <= tol64) explained++;
      }
      extra += c.filter((key) => !both.has(key)).length;
      const start = new Set(s0);
      extraStart += c.filter((key) => !start.has(key)).length;
    }
    result.continuous = { missing, missingExplained: explained, extraVsStartPerTick: ticks ? extraStart / ticks : 0, extraPerTick: ticks ? extra / ticks : 0 };
  }
  return result;
}
