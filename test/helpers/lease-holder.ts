/**
 * A stand-in for another omc-top holding a push lease: a test writes the lease naming a live process of its own
 * (one that is not omc-top), and this keeps the lease's heartbeat going as a real holder does (io/heartbeat.ts),
 * so the holder still counts as live however long the test runs on a loaded machine.
 */
import fs from 'node:fs';

/** Sets `file`'s modification time to now every second until the returned function is called. */
export function keepLeaseBeating(file: string): () => void {
  const beat = () => {
    const now = new Date();
    try {
      fs.utimesSync(file, now, now);
    } catch {
      /* taken and released by the process under test: nothing to keep */
    }
  };
  const timer = setInterval(beat, 1000);
  timer.unref();
  return () => clearInterval(timer);
}

/** The pid a push lease file names as its holder; null when there is no file or it names none (released). */
export function heldBy(file: string): number | null {
  if (!fs.existsSync(file)) return null;
  const v = JSON.parse(fs.readFileSync(file, 'utf8')) as { pid?: number };
  return v.pid ?? null;
}
