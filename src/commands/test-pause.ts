/**
 * A test seam for the commands a script stops as soon as it reads their first line (`watch --json --snapshot`'s
 * "ready", `serve`'s address): `OMC_TOP_TEST_PAUSE_AFTER_FIRST_LINE_MS` holds the process that long right after
 * that line, blocking, so a signal sent on reading it arrives while the process is held. A command that listens
 * for SIGINT/SIGTERM before its first line ends cleanly once the pause is over; one that listens only later is
 * killed by the signal's default action, every time (without the pause that moment is a few ms and a test of it
 * passes or fails by chance). Unset, or not a positive number: no pause.
 */
const MAX_PAUSE_MS = 10_000;

export function pauseAfterFirstLineForTest(env: NodeJS.ProcessEnv = process.env): void {
  const ms = Number(env.OMC_TOP_TEST_PAUSE_AFTER_FIRST_LINE_MS);
  if (!Number.isFinite(ms) || ms <= 0) return;
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.min(ms, MAX_PAUSE_MS));
}
