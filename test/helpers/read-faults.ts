/**
 * Deterministic read refusals for in-process tests: the kernel saying EACCES, EPERM or EIO when omc-top opens a
 * file or lists a directory, for the paths a test names. Tests run as root in CI, where a chmod stops no read; OMC
 * writes its files mode 0600, so another user's omc-top meets exactly these errors. Everything omc-top reads goes
 * through `fs` (src/io/safe-fs), so spying on the module object reaches every reader, as test/helpers/fault-fs.ts
 * does for writes. The errors look like the kernel's: an Error with `code`, `errno`, `syscall` and `path`.
 */
import fs from 'node:fs';
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
 * path `refuse` names, fail with `code`.
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
  return {
    hits,
    restore() {
      openSpy.mockRestore();
      listSpy.mockRestore();
      watchSpy.mockRestore();
    },
  };
}
