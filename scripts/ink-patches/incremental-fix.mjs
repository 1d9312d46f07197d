// Ink 6.8's incremental renderer moves the cursor up one row too few when the
// previous frame ended with a newline (every frame shorter than the terminal),
// so each update after the first drew one row lower. Fixed upstream in Ink 7
// (which needs Node 22). Without this, Ink redraws far more than it must: a
// one-row update costs ~205 B at 80x24 with it (BENCHMARKS.md).

/** How many rows up the cursor must go to reach the previous frame's first row. */
export function cursorUpRows(previousVisible, previousOutput) {
  return previousVisible - (previousOutput.endsWith('\n') ? 0 : 1);
}
