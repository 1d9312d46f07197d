/**
 * Deterministic read refusals for in-process tests: the kernel saying EACCES, EPERM or EIO when omc-top opens a
 * file or lists a directory, for the paths a test names. Tests run as root in CI, where a chmod stops no read; OMC
 * writes its files mode 0600, so another user's omc-top meets exactly these errors. Everything omc-top reads goes
 * through `fs` (src/io/safe-fs), so spying on the module object reaches every reader, as test/helpers/fault-fs.ts
 * does for writes. The errors look like the kernel's: an Error with `code`, `errno`, `syscall` and `path`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { vi } from 'vitest';

export type ReadFaultCode = 'EACCES' | 'EPERM' | 'EIO';

const ERRNO: Record<ReadFaultCode, number> = { EACCES: -13, EPERM: -1, EIO: -5 };
const TEXT: Record<ReadFaultCode, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'i/o error',
};

function readError(code: ReadFaultCode, syscall: string, file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${TEXT[code]}, ${syscall} '${file}'`), {
    code,
    errno: ERRNO[code],
    syscall,
    path: file,
  });
}

export interface ReadFault {
  /** Absolute paths refused, in order. */
  readonly hits: string[];
  restore(): void;
}

/**
 * Opening for reading a file, listing a directory and watching it (inotify needs read permission), whose absolute
 * path `refuse` names, fail with `code`; so do resolving and stat-ing a path under such a directory.
 */
export function refuseReads(code: ReadFaultCode, refuse: (abs: string) => boolean): ReadFault {
  const hits: string[] = [];
  const open = fs.openSync.bind(fs);
  const list = fs.readdirSync.bind(fs) as (...a: unknown[]) => unknown;
  const openSpy = vi.spyOn(fs, 'openSync').mockImplementation(((
    p: fs.PathLike,
    flags?: fs.OpenMode,
    mode?: fs.Mode,
  ) => {
    const abs = String(p);
    const forReading =
      typeof flags === 'number' ? (flags & 3) === fs.constants.O_RDONLY : flags === undefined || flags === 'r';
    if (forReading && refuse(abs)) {
      hits.push(abs);
      throw readError(code, 'open', abs);
    }
    return open(p, flags ?? 'r', mode);
  }) as typeof fs.openSync);
  const listSpy = vi.spyOn(fs, 'readdirSync').mockImplementation(((p: fs.PathLike, ...rest: unknown[]) => {
    const abs = String(p);
    if (refuse(abs)) {
      hits.push(abs);
      throw readError(code, 'scandir', abs);
    }
    return list(p, ...rest);
  }) as typeof fs.readdirSync);
  const watch = fs.watch.bind(fs) as (...a: unknown[]) => fs.FSWatcher;
  const watchSpy = vi.spyOn(fs, 'watch').mockImplementation(((p: fs.PathLike, ...rest: unknown[]) => {
    const abs = String(p);
    if (refuse(abs)) {
      hits.push(abs);
      throw readError(code, 'watch', abs);
    }
    return watch(p, ...rest);
  }) as typeof fs.watch);
  // A directory refused is one this user may not search either: resolving or stat-ing anything under it fails too
  // (the kernel checks every directory on the way), while the directory itself can still be stat-ed and resolved.
  const underRefused = (p: fs.PathLike): boolean => {
    let dir = path.dirname(path.resolve(String(p)));
    for (;;) {
      if (refuse(dir)) return true;
      const up = path.dirname(dir);
      if (up === dir) return false;
      dir = up;
    }
  };
  const guard = <F extends (...a: never[]) => unknown>(syscall: string, real: F): F =>
    ((p: fs.PathLike, ...rest: unknown[]) => {
      if (underRefused(p)) {
        hits.push(String(p));
        throw readError(code, syscall, String(p));
      }
      return (real as unknown as (...a: unknown[]) => unknown)(p, ...rest);
    }) as unknown as F;
  // The real calls, taken before the spies replace them.
  const realpath = fs.realpathSync.native.bind(fs.realpathSync);
  const stat = fs.statSync.bind(fs);
  const lstat = fs.lstatSync.bind(fs);
  const realpathSpy = vi.spyOn(fs.realpathSync, 'native').mockImplementation(guard('realpath', realpath));
  const statSpy = vi.spyOn(fs, 'statSync').mockImplementation(guard('stat', stat));
  const lstatSpy = vi.spyOn(fs, 'lstatSync').mockImplementation(guard('lstat', lstat));
  return {
    hits,
    restore() {
      openSpy.mockRestore();
      listSpy.mockRestore();
      watchSpy.mockRestore();
      realpathSpy.mockRestore();
      statSpy.mockRestore();
      lstatSpy.mockRestore();
    },
  };
}
