// Ink marks a text's Yoga node dirty once for every text node that changes
// under it: a wiki row is one <Text> of seven spans, so a keystroke that puts
// new pages in every row made 7 × 30 calls into Yoga's WebAssembly per frame at
// 200x60 where 30 do. Between two layouts a second markDirty on the same node
// changes nothing in Yoga (the node is dirty until a layout cleans it), so it
// is skipped; every layout starts a new epoch, after which the next change
// calls through again (BENCHMARKS.md, "Round three, second wave").

let epoch = 0;
const markedIn = new WeakMap();

/** Yoga's `markDirty` on `yogaNode`, at most once per node between two layouts. */
export function markDirtyOnce(yogaNode) {
  if (!yogaNode) return;
  if (markedIn.get(yogaNode) === epoch) return;
  markedIn.set(yogaNode, epoch);
  yogaNode.markDirty();
}

/**
 * Called just before every Yoga layout Ink computes (wrapped around its direction argument, which it returns):
 * the marks made before it are spent.
 */
export function layoutEpoch(direction) {
  epoch++;
  return direction;
}
