/**
 * Real kernel limits and real filesystems without root, through a user
 * namespace (`unshare -U -r`): inside it we may lower the per-namespace
 * inotify limits (/proc/sys/user/max_inotify_watches, …_instances, Linux
 * ≥ 5.11), mount a tiny tmpfs that really fills up (ENOSPC) and remount it
 * read-only (EROFS). Nothing outside the namespace is affected, so other
 * processes of the same user keep their watches.
 *
 * CI runners may forbid unprivileged user namespaces (Ubuntu 24.04's
 * AppArmor default); `userNsSupport()` says so and the tests skip with that
 * reason, keeping the injected-fault tests as the deterministic baseline.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { shq } from './fault-pty.js';
import { scaled } from './time-scale.js';

export interface Support {
  ok: boolean;
  why: string;
}

let cached: { inotify: Support; mounts: Support } | null = null;

function probe(args: string[]): Support {
  const r = spawnSync('unshare', args, { encoding: 'utf8', timeout: scaled(10_000) });
  if (r.error) return { ok: false, why: `unshare not runnable: ${r.error.message}` };
  if (r.status !== 0)
    return {
      ok: false,
      why: `unprivileged user namespaces unavailable here: ${(r.stderr || `status ${r.status}`).trim()}`,
    };
  return { ok: true, why: '' };
}

/** A tmpfs can be mounted, and remounted read-only, in a private mount namespace. */
function probeMounts(): Support {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-nsprobe-'));
  try {
    return probe([
      '-U',
      '-r',
      '-m',
      'sh',
      '-c',
      `mount -t tmpfs -o size=64k tmpfs ${shq(d)} && mount -o remount,bind,ro ${shq(d)} && ! touch ${shq(`${d}/x`)} 2>/dev/null`,
    ]);
  } finally {
    fs.rmSync(d, { recursive: true, force: true });
  }
}

export function userNsSupport(): { inotify: Support; mounts: Support } {
  if (cached) return cached;
  cached = {
    inotify: probe([
      '-U',
      '-r',
      'sh',
      '-c',
      'echo 1 > /proc/sys/user/max_inotify_watches && echo 1 > /proc/sys/user/max_inotify_instances',
    ]),
    mounts: probeMounts(),
  };
  return cached;
}

/** `unshare` arguments that run the shell `script` as root of a new user (and, with `mount`, mount) namespace. */
export function inUserNs(script: string, opts: { mount?: boolean } = {}): { file: string; args: string[] } {
  return { file: 'unshare', args: ['-U', '-r', ...(opts.mount ? ['-m'] : []), 'sh', '-c', script] };
}

/** Runs `script` inside the namespaces of `pid` (its user and mount namespace), as its root. */
export function nsExec(pid: number, script: string, opts: { mount?: boolean } = {}): string {
  return execFileSync(
    'nsenter',
    ['-t', String(pid), '-U', ...(opts.mount ? ['-m'] : []), '--preserve-credentials', 'sh', '-c', script],
    {
      encoding: 'utf8',
      timeout: scaled(10_000),
    },
  );
}

export { shq };
