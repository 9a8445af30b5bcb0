/**
 * The benchmark's output: console tables, the CSV (one row per result, a `section` column) and the
 * owner's targets, evaluated on ratios measured side by side in the same run.
 */
import { writeFileSync } from 'node:fs';
import type { SizeResult } from './child.js';
import type { MicroResult } from './micro.js';

export interface BenchReport {
  host: string;
  date: string;
  node: string;
  cpu: string;
  quick: boolean;
  seed: number;
  sizes: SizeResult[];
  micro: MicroResult[];
  microSink: number;
}

/** Missing values: undefined, or NaN (null after a JSON round trip). */
const none = (x: number | undefined | null): x is undefined | null => x === undefined || x === null || Number.isNaN(x);
const fmt = (x: number | undefined, d = 2): string => (none(x) ? '–' : x.toFixed(d));
const big = (x: number | undefined): string => (none(x) ? '–' : Math.round(x).toLocaleString('en-US'));
const sig = (x: number | undefined): string => (none(x) ? '–' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

/** Prints an aligned table; columns in `left` are left-aligned, the others right-aligned. */
function table(head: string[], rows: string[][], out: (s: string) => void, left: number[] = [1]): void {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (left.includes(i) ? c.padEnd(w[i]) : c.padStart(w[i]))).join('  ').trimEnd();
  out(line(head));
  out(w.map((n) => '─'.repeat(n)).join('  '));
  for (const r of rows) out(line(r));
}

/** Short verification verdict of one implementation at one size. */
export function verdict(s: SizeResult, id: string): string {
  const v = s.verify;
  if (!v) return '–';
  if (id === v.reference) return 'reference';
  if (id === 'ours-continuous') {
    const c = v.continuous;
    if (!c) return '–';
    const bad = c.missing - c.missingExplained;
    return bad === 0 ? `⊇ static at start & end; +${c.extraVsStartPerTick.toFixed(1)}/tick vs start (${c.extraPerTick.toFixed(2)} mid-motion only)` : `MISSES ${bad} static pairs`;
  }
  const r = v.impls[id];
  if (!r) return '–';
  if (r.unexplained > 0) return `MISMATCH ${r.unexplained} (gap ≤ ${r.worstUnexplainedGap.toExponential(1)})`;
  const touching = r.float32Touching + r.exactTouching;
  return touching === 0 ? `= ${v.reference}` : `= ${v.reference} but ${touching} touching pair(s)`;
}

export interface Target { name: string; measured: string; pass: boolean | undefined }

export function targets(report: BenchReport): Target[] {
  const t: Target[] = [];
  for (const s of report.sizes) {
    const st = s.impls['ours-static'];
    if (s.size >= 10000 && st) {
      const x = st.speedupVsRapier;
      t.push({ name: `static ≥ 15× faster than Rapier at N = ${big(s.size)}`, measured: x === undefined ? 'Rapier not measured' : `${fmt(x, 1)}×`, pass: x === undefined ? undefined : x >= 15 });
    }
  }
  for (const s of report.sizes) {
    const x = s.continuousOverStatic;
    if (x !== undefined) t.push({ name: `continuous ≤ 1.5× static at N = ${big(s.size)}`, measured: `${fmt(x, 2)}×`, pass: x <= 1.5 });
  }
  for (const s of report.sizes) {
    for (const id of ['ours-static', 'ours-continuous']) {
      const b = s.impls[id]?.bytesPerTick;
      if (b !== undefined) t.push({ name: `${id}: 0 B allocated per steady tick at N = ${big(s.size)}`, measured: `${fmt(b, 1)} B`, pass: none(b) ? undefined : b < 1 });
    }
  }
  for (const s of report.sizes) {
    const st = s.impls['ours-static']?.state;
    if (st) {
      const per = st.total / s.bodies;
      t.push({ name: `≤ 128 B of physics state per body at N = ${big(s.size)}`, measured: `${fmt(per, 1)} B`, pass: per <= 128 });
    }
  }
  return t;
}

export function printReport(r: BenchReport, out: (s: string) => void): void {
  out(`\nArena benchmark — ${r.host}, ${r.cpu}, Node ${r.node}, ${r.date}${r.quick ? ' (quick)' : ''}, seed ${r.seed}`);
  out('ms/tick: median of timed rounds (interleaved, after warm-up); "vs Rapier": median over rounds of Rapier ms / this ms in the same round.');
  out('contacts/tick: sphere–box pairs touching, mean over the verified poses (the same poses for every implementation; continuous: touching at any time of the tick).');
  out('B/tick: bytes allocated per steady tick, JS heap + external, no GC inside the batch; state B/body: physics-owned typed arrays / bodies;');
  out('heap / ext B/body: JS heap and external (typed arrays, WASM memory) growth from building the scene and its first tick / bodies. Memory and B/tick are measured with each implementation alone in a fresh process.\n');
  const rows: string[][] = [];
  for (const s of r.sizes) {
    for (const [id, x] of Object.entries(s.impls)) {
      if (x.status === 'skipped') {
        rows.push([big(s.size), id, 'skipped', '–', '–', '–', '–', '–', '–', '–', x.reason ?? '']);
        continue;
      }
      rows.push([
        big(s.size), id, sig(x.msPerTick), `${sig(x.msPerTickP25)}–${sig(x.msPerTickP75)}`,
        x.speedupVsRapier === undefined ? '–' : `${fmt(x.speedupVsRapier, 2)}×`,
        fmt(x.contactsPerTick, 1), fmt(x.bytesPerTick, 0), x.state ? fmt(x.state.total / s.bodies, 1) : '–',
        fmt(x.heapBytesPerBody, 0), fmt(x.externalBytesPerBody, 0), verdict(s, id),
      ]);
    }
  }
  table(['N', 'implementation', 'ms/tick', 'p25–p75', 'vs Rapier', 'contacts/tick', 'B/tick', 'state B/body', 'heap B/body', 'ext B/body', 'contacts check / note'], rows, out, [1, 10]);
  for (const s of r.sizes) {
    if (s.continuousOverStatic !== undefined) out(`N = ${big(s.size)}: continuous / static = ${fmt(s.continuousOverStatic, 2)}× (median of per-round ratios)`);
  }
  const skipped = r.sizes.flatMap((s) => Object.values(s.impls).filter((x) => x.status === 'skipped').map((x) => `${x.id} at N = ${big(s.size)}: ${x.reason}`));
  if (skipped.length) out(`Skipped (one tick over 2 s): ${skipped.join('; ')}`);

  const sw = r.sizes.filter((s) => s.swept);
  if (sw.length) {
    out('\nSwept queries (each sphere\'s tick motion against the boxes; queries per second, median of rounds)');
    table(['N', 'pairs/hits', 'ours pair q/s', 'Rapier pair q/s', 'ratio', 'ours 1st-hit q/s', 'Rapier 1st-hit q/s', 'ratio', 'hit mismatches', 'p99 |Δtoi|', 'max |Δtoi| (where; gap at ours / Rapier toi)'],
      sw.map((s) => {
        const w = s.swept!;
        return [big(s.size), `${big(w.pairs)}/${big(w.hits)}`, big(w.oursPairQps), big(w.rapierPairQps), `${fmt(w.oursPairQps / w.rapierPairQps, 1)}×`,
          big(w.oursFirstHitQps), big(w.rapierFirstHitQps), `${fmt(w.oursFirstHitQps / w.rapierFirstHitQps, 1)}×`,
          `${w.hitMismatches} pair, ${w.firstHitMismatches} 1st`, w.p99ToiDiff.toExponential(1),
          `${w.maxToiDiff.toExponential(2)} (${w.maxToiDiffAt}; ${w.maxToiDiffGapOurs.toExponential(1)} / ${w.maxToiDiffGapRapier.toExponential(1)})`];
      }), out, [10]);
    out('pair: the same candidate pairs (our grid) through castSphereBox and Rapier Ball.castShape; 1st-hit: gridQuery + castSphereBox vs Rapier world.castShape (boxes only). gap = signed float64 distance at each toi.');
  }
  if (r.micro.length) {
    out('\nGeometry micro benchmarks (tinybench; 1,024 seeded cases per iteration; ns per call)');
    table(['function', 'hit rate', 'ns/op median', 'p25–p75'], r.micro.map((m) => [m.fn, fmt(m.hitRate, 2), fmt(m.nsPerOp, 1), `${fmt(m.nsP25, 1)}–${fmt(m.nsP75, 1)}`]), out, [0]);
    out(`sink ${r.microSink}`);
  }
  const t = targets(r);
  if (t.length) {
    out('\nTargets');
    table(['target', 'measured', 'result'], t.map((x) => [x.name, x.measured, x.pass === undefined ? 'n/a' : x.pass ? 'PASS' : 'FAIL']), out, [0]);
  }
}

const CSV_HEAD = ['host', 'date', 'section', 'impl', 'n', 'bodies', 'status', 'ms_per_tick', 'ms_p25', 'ms_p75', 'speedup_vs_rapier',
  'contacts_per_tick', 'bytes_per_tick', 'state_bytes_per_body', 'heap_bytes_per_body', 'external_bytes_per_body',
  'queries_per_s', 'max_toi_diff', 'ns_per_op', 'check', 'note'];

export function writeCsv(r: BenchReport, path: string): string {
  const rows: (string | number | undefined)[][] = [];
  const row = (o: Partial<Record<(typeof CSV_HEAD)[number], string | number | undefined>>) =>
    rows.push(CSV_HEAD.map((h) => (h === 'host' ? r.host : h === 'date' ? r.date : o[h])));
  for (const s of r.sizes) {
    for (const [id, x] of Object.entries(s.impls)) {
      row({
        section: 'tick', impl: id, n: s.size, bodies: s.bodies, status: x.status, ms_per_tick: x.msPerTick, ms_p25: x.msPerTickP25, ms_p75: x.msPerTickP75,
        speedup_vs_rapier: x.speedupVsRapier, contacts_per_tick: x.contactsPerTick, bytes_per_tick: x.bytesPerTick,
        state_bytes_per_body: x.state ? x.state.total / s.bodies : undefined, heap_bytes_per_body: x.heapBytesPerBody,
        external_bytes_per_body: x.externalBytesPerBody, check: verdict(s, id), note: x.reason,
      });
    }
    const w = s.swept;
    if (w) {
      row({ section: 'swept-pair', impl: 'ours', n: s.size, queries_per_s: w.oursPairQps, max_toi_diff: w.maxToiDiff, note: `${w.pairs} pairs` });
      row({ section: 'swept-pair', impl: 'rapier', n: s.size, queries_per_s: w.rapierPairQps, max_toi_diff: w.maxToiDiff, note: `${w.hitMismatches} hit mismatches` });
      row({ section: 'swept-first-hit', impl: 'ours', n: s.size, queries_per_s: w.oursFirstHitQps, max_toi_diff: w.firstHitMaxToiDiff });
      row({ section: 'swept-first-hit', impl: 'rapier', n: s.size, queries_per_s: w.rapierFirstHitQps, max_toi_diff: w.firstHitMaxToiDiff, note: `${w.firstHitMismatches} hit mismatches` });
    }
  }
  for (const m of r.micro) row({ section: 'micro', impl: m.fn, ns_per_op: m.nsPerOp, note: `p25 ${m.nsP25.toFixed(2)} p75 ${m.nsP75.toFixed(2)} hit rate ${m.hitRate.toFixed(2)}` });
  const cell = (v: string | number | undefined) => {
    if (v === undefined || v === null || (typeof v === 'number' && Number.isNaN(v))) return '';
    const s = typeof v === 'number' ? String(Number(v.toPrecision(6))) : v;
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  writeFileSync(path, `${[CSV_HEAD, ...rows].map((r2) => r2.map(cell).join(',')).join('\n')}\n`);
  return path;
}
