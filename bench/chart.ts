/**
 * Hand-written SVG chart: median ms per tick against N (spheres), log-log, one line per
 * implementation, with labelled axes and a legend. No dependencies.
 */
import { writeFileSync } from 'node:fs';
import type { BenchReport } from './report.js';

const STYLE: Record<string, { color: string; dash?: string; label: string }> = {
  'ours-static': { color: '#1f5fbf', label: 'ours (static contacts)' },
  'ours-continuous': { color: '#2aa198', dash: '7 4', label: 'ours (continuous contacts)' },
  'bare-grid': { color: '#6a3d9a', dash: '4 3', label: 'bare typed-array grid (proxy)' },
  jolt: { color: '#8c564b', label: 'Jolt 1.1 (WASM, queries)' },
  rapier: { color: '#d62728', label: 'Rapier 0.21 (WASM)' },
  'cannon-es': { color: '#e08a00', label: 'cannon-es 0.20' },
  'brute-force': { color: '#777777', dash: '2 4', label: 'brute force (N·M pairs)' },
};

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function niceTicks(lo: number, hi: number): number[] {
  const t: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (v >= lo && v <= hi) t.push(v);
    }
  }
  return t;
}

const label = (v: number): string => (v >= 1000 ? v.toLocaleString('en-US') : v >= 1 ? String(v) : String(Number(v.toPrecision(2))));

export function renderChart(r: BenchReport): string {
  const W = 900, H = 600, L = 90, R = 250, T = 60, B = 75;
  const pw = W - L - R, ph = H - T - B;
  const series = new Map<string, [number, number][]>();
  const skipped = new Map<string, number[]>();
  for (const s of r.sizes) {
    for (const [id, x] of Object.entries(s.impls)) {
      if (x.status === 'ok' && x.msPerTick! > 0) {
        if (!series.has(id)) series.set(id, []);
        series.get(id)!.push([s.size, x.msPerTick!]);
      } else if (x.status === 'skipped') {
        if (!skipped.has(id)) skipped.set(id, []);
        skipped.get(id)!.push(s.size);
      }
    }
  }
  const ns = r.sizes.map((s) => s.size);
  const ys = [...series.values()].flat().map((p) => p[1]);
  const xLo = Math.min(...ns) / 1.6, xHi = Math.max(...ns) * 1.6;
  const yLo = 10 ** Math.floor(Math.log10(Math.min(...ys))), yHi = 10 ** Math.ceil(Math.log10(Math.max(...ys)));
  const X = (v: number) => L + ((Math.log10(v) - Math.log10(xLo)) / (Math.log10(xHi) - Math.log10(xLo))) * pw;
  const Y = (v: number) => T + ph - ((Math.log10(v) - Math.log10(yLo)) / (Math.log10(yHi) - Math.log10(yLo))) * ph;
  const o: string[] = [];
  o.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif" font-size="13">`);
  o.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  o.push(`<text x="${L + pw / 2}" y="28" text-anchor="middle" font-size="17" font-weight="bold">Arena: time per tick against scene size (log–log)</text>`);
  o.push(`<text x="${L + pw / 2}" y="47" text-anchor="middle" fill="#555">${esc(`${r.host}, Node ${r.node}, ${r.date.slice(0, 10)}${r.quick ? ', quick run' : ''}; median of interleaved rounds`)}</text>`);
  // Grid and ticks.
  for (const v of niceTicks(yLo, yHi)) {
    const major = Math.log10(v) % 1 === 0;
    o.push(`<line x1="${L}" x2="${L + pw}" y1="${Y(v).toFixed(1)}" y2="${Y(v).toFixed(1)}" stroke="${major ? '#ccc' : '#eee'}"/>`);
    o.push(`<text x="${L - 8}" y="${(Y(v) + 4).toFixed(1)}" text-anchor="end">${label(v)}</text>`);
  }
  for (const v of [...new Set([...niceTicks(xLo, xHi).filter((t) => Math.log10(t) % 1 === 0), ...ns])].sort((a, b) => a - b)) {
    o.push(`<line x1="${X(v).toFixed(1)}" x2="${X(v).toFixed(1)}" y1="${T}" y2="${T + ph}" stroke="#e4e4e4"/>`);
    o.push(`<text x="${X(v).toFixed(1)}" y="${T + ph + 20}" text-anchor="middle">${v.toLocaleString('en-US')}</text>`);
  }
  o.push(`<rect x="${L}" y="${T}" width="${pw}" height="${ph}" fill="none" stroke="#333"/>`);
  o.push(`<text x="${L + pw / 2}" y="${H - 22}" text-anchor="middle" font-size="14">N = number of spheres (boxes = N / 10), log scale</text>`);
  o.push(`<text transform="translate(24 ${T + ph / 2}) rotate(-90)" text-anchor="middle" font-size="14">milliseconds per tick (median), log scale</text>`);
  // Lines.
  let ly = T + 10;
  for (const id of Object.keys(STYLE)) {
    const pts = series.get(id);
    const st = STYLE[id];
    if (!pts && !skipped.has(id)) continue;
    if (pts) {
      const d = pts.map(([x, y], i) => `${i ? 'L' : 'M'}${X(x).toFixed(1)} ${Y(y).toFixed(1)}`).join(' ');
      o.push(`<path d="${d}" fill="none" stroke="${st.color}" stroke-width="2.5"${st.dash ? ` stroke-dasharray="${st.dash}"` : ''}/>`);
      for (const [x, y] of pts) o.push(`<circle cx="${X(x).toFixed(1)}" cy="${Y(y).toFixed(1)}" r="4" fill="${st.color}"><title>${esc(`${st.label}: N=${x}, ${y.toPrecision(3)} ms`)}</title></circle>`);
    }
    const lx = L + pw + 18;
    o.push(`<line x1="${lx}" x2="${lx + 30}" y1="${ly}" y2="${ly}" stroke="${st.color}" stroke-width="2.5"${st.dash ? ` stroke-dasharray="${st.dash}"` : ''}/>`);
    o.push(`<circle cx="${lx + 15}" cy="${ly}" r="4" fill="${st.color}"/>`);
    o.push(`<text x="${lx + 38}" y="${ly + 4}">${esc(st.label)}</text>`);
    const sk = skipped.get(id);
    if (sk) {
      ly += 16;
      o.push(`<text x="${lx + 38}" y="${ly + 4}" fill="#777" font-size="11">${esc(`skipped at N = ${sk.map((n) => n.toLocaleString('en-US')).join(', ')} (> 2 s/tick)`)}</text>`);
    }
    ly += 26;
  }
  o.push('</svg>');
  return `${o.join('\n')}\n`;
}

export function writeChart(r: BenchReport, path: string): string {
  writeFileSync(path, renderChart(r));
  return path;
}
