/**
 * The full byte × bit sweep of the sweep snapshots (test/snapshot/sweep.ts): every byte of each
 * snapshot XORed with each bit and set to 0xFF, restored with checksum verification and without.
 * Prints the outcomes per scene and in total; exits 1 when any corruption crashed the restore with
 * another error, changed the state before throwing, or (with verification) was not caught.
 *
 *   npx tsx scripts/snapshotSweep.ts
 */
import { buildSweepScenes, emptyCounts, formatCounts, sweep, type SweepCounts } from '../test/snapshot/sweep.js';

let failed = false;
for (const verify of [true, false]) {
  const total = emptyCounts();
  for (const scene of buildSweepScenes()) {
    const c = emptyCounts();
    sweep(scene, verify, c);
    console.log(formatCounts(`verify ${verify}, ${scene.name} (${scene.snap.length} bytes)`, c));
    for (const f of c.failures) console.log(`  ${f}`);
    for (const k of ['attempts', 'caught', 'identical', 'different', 'otherError', 'changedOnThrow'] as const) total[k] += c[k];
    for (const [k, n] of Object.entries(c.fields)) total.fields[k] = (total.fields[k] ?? 0) + n;
    if (bad(c, verify)) failed = true;
  }
  console.log(formatCounts(`verify ${verify}, total`, total));
}
process.exit(failed ? 1 : 0);

function bad(c: SweepCounts, verify: boolean): boolean {
  return c.otherError + c.changedOnThrow > 0 || (verify && c.caught !== c.attempts);
}
