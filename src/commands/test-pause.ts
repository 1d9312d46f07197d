/** Test seams that hold a command at a moment a test must act in. Only tests set their variables. */
import path from 'node:path';
import { statSync } from '../io/safe-fs/index.js';
import { shownPath } from '../io/shown-path.js';

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

/** The longest a test hold lasts when the test never releases it: the command then goes on, as without the hold. */
const MAX_HOLD_MS = 30_000;
const HOLD_STEP_MS = 20;

/**
 * A test seam for a moment too short to hit by chance (`omc-top cancel` between its plan and its write):
 * `OMC_TOP_TEST_HOLD_CANCEL=<file>` holds the command there, says so on stderr (`held for a test until <file>
 * exists`), and goes on once `<file>` exists, so a test can change the disk exactly in that moment, however slow the
 * machine. Unset: no hold.
 */
export async function holdUntilFileForTest(
  say: (s: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const file = env.OMC_TOP_TEST_HOLD_CANCEL;
  if (file === undefined || !path.isAbsolute(file)) return;
  say(`held for a test until ${shownPath(file)} exists\n`);
  const end = Date.now() + MAX_HOLD_MS;
  while (statSync(path.dirname(file), path.basename(file)) === null && Date.now() < end)
    await new Promise((r) => setTimeout(r, HOLD_STEP_MS));
}
