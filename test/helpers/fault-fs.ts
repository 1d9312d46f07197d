/**
 * Deterministic filesystem faults for in-process tests: a full disk
 * (ENOSPC), a read-only filesystem (EROFS), a directory we may not write
 * (EACCES), injected at one exact step of a write (creating a file, writing
 * its bytes, renaming it into place, making a directory). Everything in
 * omc-top writes through `fs` (src/store/fsx.ts, file-lock.ts), so spying on
 * the module object reaches every writer; reads are never touched.
 *
 * The errors look like the kernel's: an Error with `code`, `errno`,
 * `syscall` and `path`, so the code under test cannot tell them apart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { vi } from 'vitest';

export type FaultCode = 'ENOSPC' | 'EROFS' | 'EACCES' | 'EDQUOT';
/**
 * Where the fault hits:
 * - `create`: opening a file for writing (new temp file, lock file) fails;
 * - `write`: the file is created but writing its bytes fails (how a full disk
 *   behaves: an empty inode still fits, the data does not);
 * - `rename`: everything is written, moving it over the target fails;
 * - `mkdir`: a directory cannot be created.
 */
export type FaultStep = 'create' | 'write' | 'rename' | 'mkdir';

const ERRNO: Record<FaultCode, number> = { ENOSPC: -28, EROFS: -30, EACCES: -13, EDQUOT: -122 };
const TEXT: Record<FaultCode, string> = {
  ENOSPC: 'no space left on device',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EDQUOT: 'disk quota exceeded',
};

export function kernelError(code: FaultCode, syscall: string, file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${TEXT[code]}, ${syscall} '${file}'`), {
    code,
    errno: ERRNO[code],
    syscall,
    path: file,
  });
}

export interface FaultSpec {
  code: FaultCode;
  step: FaultStep;
  /** Which paths fail (tested against the absolute path; for rename, the source or the destination). */
  path: RegExp | ((abs: string) => boolean);
  /** Fail only this many times, then let calls through (default: every time until restore). */
  times?: number;
}

export interface InjectedFault {
  /** Absolute paths the fault hit, in order. */
  readonly hits: string[];
  restore(): void;
}

type Flags = string | number | undefined;

/**
 * The path a call really names. omc-top's writers name files through the
 * directory they hold open (`/proc/self/fd/<fd>/<name>`, see ContainedDir in
 * src/store/fsx.ts); faults are specified by the ordinary path.
 */
export function realName(p: fs.PathLike): string {
  const s = String(p);
  const m = /^\/proc\/self\/fd\/(\d+)(\/.*)?$/.exec(s);
  if (m) {
    try {
      return path.join(fs.readlinkSync(`/proc/self/fd/${m[1]}`), m[2] ?? '');
    } catch {
      return s;
    }
  }
  return path.resolve(s);
}

/** True when open() flags create or write (reads are never faulted). */
function writesWith(flags: Flags): boolean {
  if (flags === undefined) return false;
  if (typeof flags === 'string') return /[wa+]/.test(flags);
  const { O_WRONLY, O_RDWR, O_CREAT } = fs.constants;
  return (flags & (O_WRONLY | O_RDWR | O_CREAT)) !== 0;
}

/**
 * Installs one fault; `restore()` removes it (call it in afterEach too, it is
 * idempotent). Several faults can be active at once.
 */
export function injectFault(spec: FaultSpec): InjectedFault {
  const hits: string[] = [];
  let left = spec.times ?? Infinity;
  const matches = typeof spec.path === 'function' ? spec.path : (p: string) => (spec.path as RegExp).test(p);
  const fire = (p: string): boolean => {
    if (left <= 0 || !matches(p)) return false;
    left -= 1;
    hits.push(p);
    return true;
  };
  const spies: Array<{ mockRestore(): void }> = [];
  // fd → path for the files opened while the fault is active, so a write can be matched to its file.
  const fdPaths = new Map<number, string>();

  const realOpen = fs.openSync;
  spies.push(
    vi.spyOn(fs, 'openSync').mockImplementation(((p: fs.PathLike, flags?: Flags, mode?: fs.Mode) => {
      const abs = realName(p);
      if (spec.step === 'create' && writesWith(flags) && fire(abs)) throw kernelError(spec.code, 'open', abs);
      const fd = realOpen(p, flags as fs.OpenMode, mode);
      if (writesWith(flags)) fdPaths.set(fd, abs);
      return fd;
    }) as typeof fs.openSync),
  );
  if (spec.step === 'write') {
    const realWrite = fs.writeSync;
    spies.push(
      vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, ...rest: unknown[]) => {
        const p = fdPaths.get(fd);
        if (p !== undefined && fire(p)) throw kernelError(spec.code, 'write', p);
        return (realWrite as (...a: unknown[]) => number)(fd, ...rest);
      }) as typeof fs.writeSync),
    );
    const realWriteFile = fs.writeFileSync;
    spies.push(
      vi.spyOn(fs, 'writeFileSync').mockImplementation(((p: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
        const abs = typeof p === 'number' ? fdPaths.get(p) : realName(p);
        if (abs !== undefined && fire(abs)) throw kernelError(spec.code, 'write', abs);
        return (realWriteFile as (...a: unknown[]) => void)(p, ...rest);
      }) as typeof fs.writeFileSync),
    );
  }
  if (spec.step === 'rename') {
    const realRename = fs.renameSync;
    spies.push(
      vi.spyOn(fs, 'renameSync').mockImplementation(((from: fs.PathLike, to: fs.PathLike) => {
        const a = realName(from);
        const b = realName(to);
        if (fire(matches(b) ? b : a)) throw kernelError(spec.code, 'rename', a);
        return realRename(from, to);
      }) as typeof fs.renameSync),
    );
  }
  if (spec.step === 'mkdir') {
    const realMkdir = fs.mkdirSync;
    spies.push(
      vi.spyOn(fs, 'mkdirSync').mockImplementation(((p: fs.PathLike, opts?: fs.MakeDirectoryOptions) => {
        const abs = realName(p);
        if (!fs.existsSync(abs) && fire(abs)) throw kernelError(spec.code, 'mkdir', abs);
        return realMkdir(p, opts);
      }) as typeof fs.mkdirSync),
    );
  }
  let restored = false;
  return {
    hits,
    restore() {
      if (restored) return;
      restored = true;
      for (const s of spies.reverse()) s.mockRestore();
    },
  };
}

/**
 * Files a failed write must never leave behind, anywhere under `root`: OMC-
 * style temp files (`.<name>.tmp.<id>`), `<file>.lock` and mutation-lock
 * temps. Returned relative to root.
 */
export function strayWriteArtifacts(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of names) {
      const abs = path.join(dir, d.name);
      if (d.isDirectory()) walk(abs);
      else if (/\.tmp\.|\.lock$|\.lock\.\d+\.[0-9a-f-]+\.tmp$/.test(d.name)) out.push(path.relative(root, abs));
    }
  };
  walk(root);
  return out.sort();
}

/** Every file under root with its bytes, to prove a failed save changed nothing. */
export function snapshotTree(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, d.name);
      if (d.isDirectory()) walk(abs);
      else if (d.isFile()) out.set(path.relative(root, abs), fs.readFileSync(abs, 'latin1'));
    }
  };
  walk(root);
  return out;
}
