/**
 * The bouncing gas (src/scenes/gas.ts, issue 24 item 4): every sphere dynamic (BOUNCE, e = 1, 20
 * radii per tick) against the same spheres detection only (kinematic, reflected at the walls), at
 * each size, in one process, interleaved rounds, median ms per tick; with the response's work per
 * tick (impacts, exact casts, bodies capped, bodies the end-of-tick projection checked).
 * `npx tsx bench/gas.ts [--sizes 250,1000,4000] [--rounds 5] [--ticks 5] [--warm 3]`: `--warm` ticks
 * of both worlds before timing (3: the gas near its start, as the issue set it up, sizes timed in
 * turn while the code warms; 300: the steady bouncing gas, every function optimised).
 */
import { buildGas, type Gas } from '../src/scenes/gas.js';
import { internalsOf } from '../src/physics/internal.js';
import { R_CAPPED, R_CASTS, R_IMPACTS, R_REJECTS, R_SUSPECTS } from '../src/response/responseState.js';
import { median, now } from './common.js';

export interface GasResult {
  spheres: number;
  detectionMs: number;
  responseMs: number;
  ratio: number;
  impacts: number;
  casts: number;
  capped: number;
  suspects: number;
  rejects: number;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

/** Runs the gas at `size` spheres. */
export function runGas(size: number, rounds: number, ticks: number, warm = 3): GasResult {
  const detection = buildGas({ spheres: size, dynamic: false });
  const dynamic = buildGas({ spheres: size, dynamic: true });
  for (let i = 0; i < warm; i++) {
    detection.tick();
    dynamic.tick();
  }
  const d: number[] = [], r: number[] = [];
  const work = [0, 0, 0, 0, 0];
  const time = (g: Gas, count: boolean): number => {
    const t0 = now();
    for (let i = 0; i < ticks; i++) {
      g.tick();
      if (!count) continue;
      const w = internalsOf(g.physics).response!.work;
      work[0] += w[R_IMPACTS];
      work[1] += w[R_CASTS];
      work[2] += w[R_CAPPED];
      work[3] += w[R_SUSPECTS];
      work[4] += w[R_REJECTS];
    }
    return (now() - t0) / ticks;
  };
  for (let k = 0; k < rounds; k++) {
    if (k % 2 === 0) {
      d.push(time(detection, false));
      r.push(time(dynamic, true));
    } else {
      r.push(time(dynamic, true));
      d.push(time(detection, false));
    }
  }
  const n = rounds * ticks;
  return {
    spheres: size, detectionMs: median(d), responseMs: median(r), ratio: median(r) / median(d),
    impacts: work[0] / n, casts: work[1] / n, capped: work[2] / n, suspects: work[3] / n, rejects: work[4] / n,
  };
}

if (process.argv[1]?.endsWith('gas.ts')) {
  const sizes = arg('sizes', '250,1000,4000').split(',').map(Number);
  const rounds = Number(arg('rounds', '5'));
  const ticks = Number(arg('ticks', '5'));
  const warm = Number(arg('warm', '3'));
  const results = sizes.map((size) => {
    const g = runGas(size, rounds, ticks, warm);
    console.log(`gas N = ${size}: detection only ${g.detectionMs.toFixed(2)} ms/tick, response ${g.responseMs.toFixed(2)} ms/tick (${g.ratio.toFixed(2)}×); ` +
      `per tick ${g.impacts.toFixed(0)} impacts, ${g.casts.toFixed(0)} casts, ${g.rejects.toFixed(0)} rejected before a cast, ${g.capped.toFixed(0)} capped, ${g.suspects.toFixed(0)} checked by the projection`);
    return g;
  });
  for (let i = 1; i < results.length; i++) {
    console.log(`response ${results[i - 1].spheres} → ${results[i].spheres}: ×${(results[i].responseMs / results[i - 1].responseMs).toFixed(2)} time, ×${(results[i].casts / results[i - 1].casts).toFixed(2)} casts`);
  }
}
