/**
 * Case counts of the box–box property tests, printed after the file's tests only when GEOM_REPORT is
 * set (test output stays quiet otherwise): `count(key)` in a property, `printCounts(title)` in afterAll.
 */
const counts = new Map<string, number>();

/** Adds one case under `key`. */
export function count(key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** Prints the counts (GEOM_REPORT set) under `title`, sorted by key. */
export function printCounts(title: string): void {
  if (!process.env.GEOM_REPORT) return;
  const keys = [...counts.keys()].sort();
  const w = Math.max(0, ...keys.map((k) => k.length));
  console.log([title, ...keys.map((k) => `  ${k.padEnd(w)}  ${counts.get(k)}`)].join('\n'));
}
