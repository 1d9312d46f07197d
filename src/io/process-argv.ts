/**
 * The command line of a live process (Linux: /proc/<pid>/cmdline, NUL-separated), read through the safe path.
 * Used to learn what a process was started with when no file records it (an OMC graph run's approval
 * timeout). null when it cannot be read here (another platform, gone, not ours to read).
 */
import { readBytesSync } from './safe-fs/index.js';

export function processArgv(pid: number, platform: NodeJS.Platform = process.platform): string[] | null {
  if (platform !== 'linux' || !Number.isSafeInteger(pid) || pid <= 0) return null;
  const r = readBytesSync('/proc', `${pid}/cmdline`, 64 * 1024);
  if (!r.ok || r.bytes.length === 0) return null;
  const parts = r.bytes.toString('utf8').split('\0');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}
