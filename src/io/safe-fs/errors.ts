/** Failures in words a user can act on: errno codes, symlink chains, file kinds, write errors. */
import fs from 'node:fs';
import path from 'node:path';
import { quotePath } from './paths.js';
import { refusal } from './refused.js';
import type { ReadFailureCode } from './types.js';

/**
 * ELOOP means a real loop or a chain longer than the kernel follows (40): walk
 * the links ourselves (readlink only, bounded) to say which.
 */
export function describeLinkChain(abs: string): { code: ReadFailureCode; message: string } {
  const seen = new Set<string>();
  let cur = abs;
  let links = 0;
  for (; links < 1_000; links++) {
    if (seen.has(cur)) return { code: 'not-a-file', message: 'symlink loop (the link leads back to itself); not read' };
    seen.add(cur);
    let target: string;
    try {
      target = fs.readlinkSync(cur);
    } catch {
      break; // not a link (the end of the chain, or a directory link on the way): not a loop of file links
    }
    cur = path.resolve(path.dirname(cur), target);
  }
  // Not a refusal of omc-top's own: the kernel stops OMC's reads of it the same way (ELOOP), so to OMC it is absent.
  return {
    code: 'not-a-file',
    message: `a chain of ${links} symlinks, more than the 40 the kernel follows; not read`,
  };
}

export function describeErrno(err: unknown): { code: ReadFailureCode; message: string } {
  const e = err as NodeJS.ErrnoException;
  const refused = refusal(e?.code);
  if (refused) return refused;
  switch (e?.code) {
    case 'ENOENT':
      return { code: 'missing', message: 'file vanished before it could be read' };
    case 'ESRCH':
      // A /proc/<pid>/ file opened while its process was a zombie and read after it was reaped: the process is gone,
      // as ENOENT would have said a moment later (a liveness check must not take it for "cannot tell").
      return { code: 'missing', message: 'its process ended before it could be read (ESRCH)' };
    case 'EISDIR':
      return { code: 'not-a-file', message: 'is a directory where a file was expected' };
    case 'ELOOP':
      return { code: 'not-a-file', message: 'symlink loop (the link leads back to itself); not read' };
    case 'ENOTDIR':
      // A directory on the way is a file (`.claude` a file, so `.claude/settings.local.json` cannot be): said
      // in words, as a directory where a file was expected is; the code stays an I/O failure (nothing changes).
      return { code: 'io', message: 'a part of its path is a file, not a directory (ENOTDIR); not read' };
    case 'ENXIO':
      // open() of a Unix socket (or a device with nothing behind it).
      return { code: 'not-a-file', message: 'is a socket or device, not a regular file; not read' };
    default:
      return { code: 'io', message: `read failed (${e?.code ?? String(err)})` };
  }
}

export function fileKind(st: fs.Stats): string {
  if (st.isFIFO()) return 'a FIFO, a named pipe';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a plain file';
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10240 ? 1 : 0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Human-readable reason for a failed write, with the errno a user can search for: the cause only. What it means
 * for the user's work (a draft kept, a loop still running) is for the caller to say.
 */
export function describeWriteError(e: unknown): string {
  const err = e as NodeJS.ErrnoException & { missingDir?: string };
  const missing = err?.missingDir ? quotePath(err.missingDir) : undefined;
  switch (err?.code) {
    case 'ENOSPC':
      return 'disk full (ENOSPC)';
    case 'EROFS':
      return 'read-only filesystem (EROFS)';
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${err.code})`;
    case 'EDQUOT':
      return 'disk quota exceeded (EDQUOT)';
    case 'ENOENT':
      // No directory there: deleted under us (rm -rf .omc, a branch switch) or never made; say which one, without
      // claiming it once was.
      return `no such directory (ENOENT: ${missing ?? (err.path ? path.dirname(err.path) : 'no such file or directory')})`;
    case 'ELOOP':
      // `.omc` (or a directory on the way) a link that leads back to itself: said as the reads say it.
      return `symlink loop on the way (ELOOP${err.path ? `: ${quotePath(err.path)}` : ''})`;
    case 'ENOTDIR':
      return `not a directory on the way (ENOTDIR${err.path ? `: ${quotePath(err.path)}` : ''})`;
    case 'ENAMETOOLONG':
      return 'path too long (ENAMETOOLONG)';
    case 'EMFILE':
    case 'ENFILE':
      return `too many open files (${err.code})`;
    case 'EIO':
      return 'input/output error (EIO)';
    default:
      // Node's own words name the call and the path: the path quoted as every path is, never raw bytes.
      return err instanceof Error
        ? err.path
          ? err.message.replace(err.path, quotePath(err.path))
          : err.message
        : String(e);
  }
}
