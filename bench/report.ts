/**
 * The benchmark's output: console tables, the CSV (one row per result, a `section` column), the
 * targets of issue 11 evaluated on ratios measured side by side in the same run, and the Markdown
 * table written into docs/benchmarks.md (`--write-docs`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { SizeResult } from './child.js';
import type { HostileResult } from './hostile.js';
import type { MicroResult } from './micro.js';
import type { MovingBoxesRow } from './movingBoxes.js';

export interface BenchReport {
  host: string;
  date: string;
  node: string;
  cpu: string;
  quick: boolean;
  seed: number;
  sizes: SizeResult[];
  hostile: HostileResult[];
  /** The moving-boxes section (bench/movingBoxes.ts); empty when left out. */
  movingBoxes?: MovingBoxesRow[];
  micro: MicroResult[];
  microSink: number;
}

/** RSS after the build, and before it in parentheses (MB). */
const rss = (x: { rssMB?: number; rssBeforeMB?: number }): string => (none(x.rssMB) ? '–' : `${fmt(x.rssMB, 0)} (${fmt(x.rssBeforeMB, 0)})`);

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

/** Median over rounds of (this ms / reference ms), from the stored (reference / this) speedup. */
function slowdown(s: SizeResult, id: string, ref: string): number | undefined {
  const x = s.impls[id]?.speedup?.[ref];
  return x === undefined ? undefined : 1 / x;
}

/** The targets of issue 11 (and, reported, the allocation per tick). */
export function targets(report: BenchReport): Target[] {
  const t: Target[] = [];
  const add = (name: string, x: number | undefined, ok: (v: number) => boolean, unit = '×', d = 2) =>
    t.push({ name, measured: none(x) ? 'not measured' : `${fmt(x, d)}${unit}`, pass: none(x) ? undefined : ok(x) });
  for (const s of report.sizes) {
    if (s.size !== 10_000 && s.size !== 100_000) continue;
    add(`static ≤ 1.2× bare grid at N = ${big(s.size)}`, slowdown(s, 'ours-static', 'bare-grid'), (v) => v <= 1.2);
    add(`static ≥ 4× Jolt at N = ${big(s.size)}`, s.impls['ours-static']?.speedup?.jolt, (v) => v >= 4);
  }
  for (const s of report.sizes) add(`continuous ≤ 1.2× static at N = ${big(s.size)}`, s.continuousOverStatic, (v) => v <= 1.2);
  const at = (n: number) => report.sizes.find((s) => s.size === n)?.impls['ours-static'];
  const m1 = at(1_000_000), k100 = at(100_000);
  if (m1 && k100) {
    add('1,000,000 spheres ≤ 11× the 100,000 ms/tick', m1.msPerTick! / k100.msPerTick!, (v) => v <= 11);
    t.push({ name: 'RSS at 1,000,000 spheres, ours-static (reported; before building in parentheses)', measured: `${rss(m1)} MB`, pass: undefined });
  }
  for (const s of report.sizes) {
    const st = s.impls['ours-static']?.state;
    if (st) add(`≤ 128 B of physics state per body at N = ${big(s.size)}`, st.total / s.bodies, (v) => v <= 128, ' B', 1);
  }
  for (const h of report.hostile) {
    if (h.status === 'skipped') t.push({ name: `hostile ${h.id} within 2× of its twin`, measured: `skipped: ${h.reason}`, pass: false });
    else add(`hostile ${h.id} within 2× of its twin`, h.ratio, (v) => v <= 2);
  }
  for (const s of report.sizes) {
    for (const id of ['ours-static', 'ours-continuous']) {
      const b = s.impls[id]?.bytesPerTick;
      // Reported only: with the Contact component on (as here), bitecs 0.4 allocates when it adds or
      // removes the component; the physics' own zero is test/step/allocation.test.ts's to check.
      if (b !== undefined) t.push({ name: `${id}: bytes allocated per steady tick at N = ${big(s.size)} (bitecs's Contact add/remove included)`, measured: `${fmt(b, 1)} B`, pass: undefined });
    }
  }
  return t;
}

/** The hostile-scene table rows (scene, hostile and twin ms, ratio, contacts, work counters). */
function hostileRows(r: BenchReport): string[][] {
  return r.hostile.map((h) => {
    if (h.status === 'skipped' || !h.hostile || !h.twin) return [h.id, 'skipped', '–', '–', '–', '–', '–', h.reason ?? ''];
    const w = (x: typeof h.hostile) => `${big(x.candidates)} / ${big(x.cellsVisited)} / ${big(x.itemsVisited)}`;
    return [h.id, sig(h.hostile.msPerTick), sig(h.twin.msPerTick), `${fmt(h.ratio, 2)}×`, `${big(h.hostile.bodies)}`,
      `${big(h.hostile.contacts)} / ${big(h.twin.contacts)}`, `${w(h.hostile)} vs ${w(h.twin)}`, h.description];
  });
}

const HOSTILE_HEAD = ['scene', 'hostile ms', 'twin ms', 'ratio', 'bodies', 'contacts (hostile / twin)', 'work: pairs / cells / entries (hostile vs twin)', 'what'];

export function printReport(r: BenchReport, out: (s: string) => void): void {
  out(`\nArena benchmark — ${r.host}, ${r.cpu}, Node ${r.node}, ${r.date}${r.quick ? ' (quick)' : ''}, seed ${r.seed}`);
  out('ms/tick: median of timed rounds (interleaved, after warm-up); "÷ X": median over rounds of this ms / X ms in the same round (< 1: faster than X).');
  out('contacts/tick: sphere–box pairs touching, mean over the verified poses (the same poses for every implementation; continuous: touching at any time of the tick).');
  out('B/tick: bytes allocated per steady tick, JS heap + external, no GC inside the batch; state B/body: physics-owned typed arrays / bodies;');
  out('heap / ext B/body: JS heap and external (typed arrays, WASM memory) growth from building the scene and its first tick / bodies, measured with each implementation alone in a fresh process, as B/tick;');
  out('RSS: the resident set of the implementation\'s timing worker after building the scene (arena spec included) and its first tick (before building, in parentheses).\n');
  const rows: string[][] = [];
  for (const s of r.sizes) {
    for (const [id, x] of Object.entries(s.impls)) {
      if (x.status === 'skipped') {
        rows.push([big(s.size), id, 'skipped', '–', '–', '–', '–', '–', '–', '–', '–', '–', '–', x.reason ?? '']);
        continue;
      }
      const ratio = (ref: string) => (x.speedup?.[ref] === undefined ? '–' : `${fmt(1 / x.speedup[ref], 2)}×`);
      rows.push([
        big(s.size), id, sig(x.msPerTick), `${sig(x.msPerTickP25)}–${sig(x.msPerTickP75)}`,
        ratio('bare-grid'), ratio('jolt'), ratio('rapier'),
        fmt(x.contactsPerTick, 1), fmt(x.bytesPerTick, 0), x.state ? fmt(x.state.total / s.bodies, 1) : '–',
        fmt(x.heapBytesPerBody, 0), fmt(x.externalBytesPerBody, 0), rss(x), verdict(s, id),
      ]);
    }
  }
  if (rows.length) table(['N', 'implementation', 'ms/tick', 'p25–p75', '÷ bare grid', '÷ Jolt', '÷ Rapier', 'contacts/tick', 'B/tick', 'state B/body', 'heap B/body', 'ext B/body', 'RSS MB (before)', 'contacts check / note'], rows, out, [1, 13]);
  for (const s of r.sizes) {
    if (s.continuousOverStatic !== undefined) out(`N = ${big(s.size)}: continuous / static = ${fmt(s.continuousOverStatic, 2)}× (median of per-round ratios)`);
  }
  const skipped = r.sizes.flatMap((s) => Object.values(s.impls).filter((x) => x.status === 'skipped').map((x) => `${x.id} at N = ${big(s.size)}: ${x.reason}`));
  if (skipped.length) out(`Skipped (one tick over 2 s): ${skipped.join('; ')}`);

  if (r.hostile.length) {
    out('\nHostile scenes (each against a well-conditioned twin with the same bodies and nearly the same contacts; one fresh process per scene, interleaved rounds; ratio = median of per-round hostile ms / twin ms; work = one tick\'s candidate pairs / grid cells looked up / grid entries examined)');
    table(HOSTILE_HEAD, hostileRows(r), out, [0, 7]);
  }
  if (r.movingBoxes?.length) {
    out('\nMoving boxes (1,000 moving boxes among 10,000 static ones, the boxes at the density of the 100,000-sphere arena; each against its twin with the same boxes all static; one fresh process, interleaved rounds; contacts and candidate pairs of the last tick)');
    table(['spheres', 'ms/tick moving', 'ms/tick all static', 'first tick ms (moving / static)', 'contacts (box–box)', 'candidate pairs'],
      r.movingBoxes.map((m) => [big(m.spheres), sig(m.moving.msPerTick), sig(m.allStatic.msPerTick), `${fmt(m.moving.firstTickMs, 0)} / ${fmt(m.allStatic.firstTickMs, 0)}`,
        `${big(m.moving.contacts)} (${big(m.moving.boxBoxContacts)})`, `${big(m.moving.candidates)} / ${big(m.allStatic.candidates)}`]), out, []);
  }
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
  'speedup_vs_jolt', 'over_bare_grid', 'rss_mb', 'rss_before_mb', 'ratio', 'candidates', 'contacts_per_tick', 'bytes_per_tick', 'state_bytes_per_body', 'heap_bytes_per_body', 'external_bytes_per_body',
  'queries_per_s', 'max_toi_diff', 'ns_per_op', 'check', 'note'];

export function writeCsv(r: BenchReport, path: string): string {
  const rows: (string | number | undefined)[][] = [];
  const row = (o: Partial<Record<(typeof CSV_HEAD)[number], string | number | undefined>>) =>
    rows.push(CSV_HEAD.map((h) => (h === 'host' ? r.host : h === 'date' ? r.date : o[h])));
  for (const s of r.sizes) {
    for (const [id, x] of Object.entries(s.impls)) {
      row({
        section: 'tick', impl: id, n: s.size, bodies: s.bodies, status: x.status, ms_per_tick: x.msPerTick, ms_p25: x.msPerTickP25, ms_p75: x.msPerTickP75,
        speedup_vs_rapier: x.speedupVsRapier, speedup_vs_jolt: x.speedup?.jolt, over_bare_grid: x.speedup?.['bare-grid'] === undefined ? undefined : 1 / x.speedup['bare-grid'],
        rss_mb: x.rssMB, rss_before_mb: x.rssBeforeMB, contacts_per_tick: x.contactsPerTick, bytes_per_tick: x.bytesPerTick,
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
  for (const h of r.hostile) {
    for (const [impl, x] of [['hostile', h.hostile], ['twin', h.twin]] as const) {
      row({ section: 'hostile', impl: `${h.id}:${impl}`, status: h.status, bodies: x?.bodies, ms_per_tick: x?.msPerTick, ratio: h.ratio,
        contacts_per_tick: x?.contacts, candidates: x?.candidates, note: h.reason ?? h.description });
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

const LABEL: Record<string, string> = {
  'ours-static': 'ours, static contacts',
  'ours-continuous': 'ours, continuous',
  'bare-grid': 'bare typed-array grid (proxy)',
  jolt: 'Jolt (queries)',
  rapier: 'Rapier',
  'cannon-es': 'cannon-es',
  'brute-force': 'brute force',
};

/** The Markdown block written between the BENCH markers of docs/benchmarks.md. */
export function renderDocs(r: BenchReport): string {
  const o: string[] = [];
  const row = (cells: string[]) => o.push(`| ${cells.join(' | ')} |`);
  o.push('## Results', '');
  o.push(`One run of \`npm run bench -- --write-docs\` on ${r.host} (${r.cpu}, Node ${r.node}, ${r.date.slice(0, 10)}${r.quick ? ', quick run' : ''}, seed ${r.seed}).`);
  o.push('Ratios "÷ X" are medians over the timed rounds of this ms / X ms in the same round (below 1: faster than X).', '');
  row(['N spheres', 'implementation', 'ms / tick (median)', '÷ bare grid', '÷ Jolt', '÷ Rapier', 'contacts / tick', 'bytes allocated / tick', 'physics state / body', 'RSS after build (before)']);
  row(['---:', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']);
  for (const s of r.sizes) {
    for (const [id, x] of Object.entries(s.impls)) {
      const name = LABEL[id] ?? id;
      if (x.status === 'skipped') {
        row([big(s.size), name, `skipped (${x.reason})`, '', '', '', '', '', '', '']);
        continue;
      }
      const ratio = (ref: string) => (id === ref ? '1' : x.speedup?.[ref] === undefined ? '–' : `${fmt(1 / x.speedup[ref], 2)}×`);
      row([big(s.size), name, sig(x.msPerTick), ratio('bare-grid'), ratio('jolt'), ratio('rapier'), fmt(x.contactsPerTick, 1),
        big(x.bytesPerTick), x.state ? `${fmt(x.state.total / s.bodies, 0)} B` : '–', none(x.rssMB) ? '–' : `${rss(x)} MB`]);
    }
  }
  o.push('', '![ms per tick against N, log–log](../bench/results/chart.svg)', '');
  const checks = r.sizes.flatMap((s) => Object.keys(s.impls).filter((id) => s.impls[id].status === 'ok').map((id) => `${big(s.size)} ${LABEL[id] ?? id}: ${verdict(s, id)}`));
  if (checks.length) o.push(`Contact sets: ${checks.join('; ')}.`, '');
  for (const s of r.sizes) if (s.continuousOverStatic !== undefined) o.push(`- N = ${big(s.size)}: continuous / static = ${fmt(s.continuousOverStatic, 2)}×.`);
  if (r.hostile.length) {
    o.push('', '### Hostile scenes', '');
    o.push('Each against a well-conditioned twin with the same bodies and nearly the same contacts, in one fresh process, interleaved rounds; ratio = median of per-round hostile ms / twin ms; work = one tick\'s candidate pairs / grid cells looked up / grid entries examined (deterministic).', '');
    row(HOSTILE_HEAD);
    row(HOSTILE_HEAD.map((_, i) => (i >= 1 && i <= 4 ? '---:' : '---')));
    for (const cells of hostileRows(r)) row(cells);
  }
  if (r.movingBoxes?.length) {
    o.push('', '### Moving boxes', '');
    o.push('1,000 moving boxes among 10,000 static ones (at the box density of the 100,000-sphere arena), each against its twin with the same boxes all static, in one fresh process, interleaved rounds.', '');
    row(['spheres', 'ms/tick moving', 'ms/tick all static', 'contacts (box–box)']);
    row(['---:', '---:', '---:', '---:']);
    for (const m of r.movingBoxes) row([big(m.spheres), sig(m.moving.msPerTick), sig(m.allStatic.msPerTick), `${big(m.moving.contacts)} (${big(m.moving.boxBoxContacts)})`]);
  }
  const sw = r.sizes.filter((s) => s.swept);
  if (sw.length) {
    o.push('', `Swept queries (castSphereBox on our grid's candidate pairs against Rapier's castShape): ${sw.map((s) => `${(s.swept!.oursPairQps / 1e6).toFixed(1)} vs ${(s.swept!.rapierPairQps / 1e6).toFixed(2)} million/s at N = ${big(s.size)}`).join('; ')}.`);
  }
  if (r.micro.length) o.push('', `Micro benchmarks (ns per call): ${r.micro.map((m) => `${m.fn} ${fmt(m.nsPerOp, 1)}`).join(', ')}.`);
  const t = targets(r);
  if (t.length) {
    o.push('', '### Targets', '');
    row(['target', 'measured', 'result']);
    row(['---', '---:', '---']);
    for (const x of t) row([x.name, x.measured, x.pass === undefined ? '–' : x.pass ? 'met' : 'missed']);
  }
  return o.join('\n');
}

/** Replaces the text between `<!-- BENCH:START -->` and `<!-- BENCH:END -->` in `path`. */
export function writeDocs(r: BenchReport, path: string): string {
  const text = readFileSync(path, 'utf8');
  const a = text.indexOf('<!-- BENCH:START -->');
  const b = text.indexOf('<!-- BENCH:END -->');
  if (a < 0 || b < a) throw new Error(`${path}: BENCH markers not found`);
  writeFileSync(path, `${text.slice(0, a)}<!-- BENCH:START -->\n${renderDocs(r)}\n${text.slice(b)}`);
  return path;
}
