/**
 * Heapsort over an index array (Williams 1964, Floyd's construction), ordered by a caller's
 * comparison: one kernel for the sorts of ids (`grid/sortIds.ts`, past its insertion sort)
 * and of cast hits (`queries/cast.ts`). The response's event queue (`response/eventQueue.ts`)
 * keeps its own sift-down, measured faster in its hot loop. No allocation: the items are `Int32Array`
 * entries and the order a plain function of a caller-owned context (its keys in typed arrays), so
 * no closure is built per call. O(n log n) at worst; not stable (ties must be broken by the
 * comparison where the order matters).
 * @module
 */

/** Whether item `a` comes after item `b` (a strict order: never both `after(a, b)` and `after(b, a)`). */
export type After<C> = (context: C, a: number, b: number) => boolean;

/**
 * Moves item `v` down from slot `root` of the heap `items[0 .. n)` (the last item by `after` on
 * top) until no child comes after it; `items[root]` is overwritten.
 */
export function siftDown<C>(context: C, after: After<C>, items: Int32Array, root: number, v: number, n: number): void {
  let i = root;
  for (;;) {
    let c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && after(context, items[c + 1], items[c])) c++;
    if (!after(context, items[c], v)) break;
    items[i] = items[c];
    i = c;
  }
  items[i] = v;
}

/** Sorts `items[0 .. n)` so that no item comes after the next by `after`. */
export function heapSort<C>(context: C, after: After<C>, items: Int32Array, n: number): void {
  for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(context, after, items, i, items[i], n);
  for (let end = n - 1; end > 0; end--) {
    const top = items[0];
    const last = items[end];
    items[end] = top;
    siftDown(context, after, items, 0, last, end);
  }
}
