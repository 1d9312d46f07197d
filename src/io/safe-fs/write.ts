/**
 * Contained writes: OMC-style atomic replace, unlink and append, each inside a directory held open, never
 * through a symlink and never to something that is not a regular file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  createExclusive,
  createExclusiveAsync,
  openDirUnder,
  withDirUnder,
  type ContainedDir,
  type NewDirMode,
} from './contained-dir.js';
import { fileKind } from './errors.js';
import { quotePath, resolveUnder, toRel } from './paths.js';

/** Why a write would not replace what is at the target: a symlink (we would replace the link) or a directory. */
class NotReplaceable extends Error {}

/** The target of a write must not be a symlink (we would replace the link) or a directory. */
function assertReplaceable(dir: ContainedDir, name: string, rel: string): void {
  try {
    const st = fs.lstatSync(dir.at(name));
    if (st.isSymbolicLink()) throw new NotReplaceable(`refusing to write ${quotePath(rel)}: it is a symlink`);
    if (st.isDirectory()) throw new NotReplaceable(`refusing to write ${quotePath(rel)}: it is a directory`);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/**
 * What atomicWriteSync would refuse to replace at `rel` now, in the words it would refuse with ("refusing to write
 * notepad.md: it is a symlink"); null when the target is not refused for what it is (a regular file, or none yet).
 * Asked when an edit starts, so no one types a draft that cannot be written; the write still checks for itself.
 * Anything else that keeps the write from landing (a directory gone, no permission) the write itself says.
 */
export function replaceRefusal(root: string, rel: string): string | null {
  try {
    const abs = resolveUnder(root, rel);
    withDirUnder(root, path.dirname(toRel(root, abs)) || '.', (dir) => assertReplaceable(dir, path.basename(abs), rel));
    return null;
  } catch (e) {
    return e instanceof NotReplaceable ? e.message : null;
  }
}

/**
 * Atomic replace in OMC's own way (src/lib/atomic-write.ts): temp file in the
 * same directory named `.<name>.tmp.<uuid>`, created O_EXCL mode 0600, fully
 * written and fsynced, renamed over the target, then the directory fsynced.
 * Readers see the old bytes or the new bytes, never a mix. We use OMC's temp
 * naming (not write-file-atomic's `<name>.<hash>`) so OMC's session-end sweep
 * and every watcher that already ignores OMC's temps also ignore ours. The
 * temp, the rename and the cleanup all happen in the one directory held open.
 *
 * `mkdir`: make the missing directory levels on the way, with the mode of whose they are (NewDirMode); without it a
 * missing directory is an ENOENT.
 *
 * `mode`: the permission bits the file ends with (default 0600, the temp's own), for a file omc-top rewrites but
 * does not own (a user's settings file keeps its 0644). Set on the temp before the rename, so no reader ever sees
 * the file with other bits; only the 0777 bits are kept (never a setuid file).
 *
 * `commit`: asked with what is at the target now (lstat, null when nothing is), after the temp is written and
 * fsynced and right before the rename: false drops the write and its temp (another writer replaced the file since
 * the caller read it), and the call returns false. The check sits next to the rename, so the window in which a
 * write by someone else can still be replaced unseen is the one between two system calls.
 */
export function atomicWriteSync(
  root: string,
  rel: string,
  content: string | Uint8Array,
  opts: { mkdir?: NewDirMode; mode?: number; commit?: (current: fs.Stats | null) => boolean } = {},
): boolean {
  const abs = resolveUnder(root, rel);
  const name = path.basename(abs);
  const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return withDirUnder(
    root,
    path.dirname(toRel(root, abs)) || '.',
    (dir) => {
      assertReplaceable(dir, name, rel);
      const tmp = `.${name}.tmp.${randomUUID()}`;
      let fd: number | null = null;
      try {
        fd = createExclusive(dir, tmp);
        if (opts.mode !== undefined) fs.fchmodSync(fd, opts.mode & 0o777);
        let off = 0;
        while (off < data.length) off += fs.writeSync(fd, data, off, data.length - off);
        if (fs.fstatSync(fd).size !== data.length) throw new Error('short write');
        fs.fsyncSync(fd);
        fs.closeSync(fd);
        fd = null;
        if (opts.commit && !opts.commit(lstatOrNull(dir.at(name)))) {
          discardTemp(null, dir.at(tmp));
          return false;
        }
        fs.renameSync(dir.at(tmp), dir.at(name));
      } catch (e) {
        discardTemp(fd, dir.at(tmp));
        throw e;
      }
      dir.sync();
      return true;
    },
    { create: opts.mkdir },
  );
}

export interface AsyncWriteOptions {
  /** Make the missing directory levels, with this mode (whose they are: see NewDirMode). */
  mkdir?: NewDirMode;
  /**
   * Asked on the main thread right before the rename: false drops this write and its temp (the caller has
   * written something newer since, e.g. a synchronous final write at exit). Resolves false then.
   */
  commit?: () => boolean;
  /** Told the temp file's path under root before it is made, so a caller that cannot wait (an exit) can remove it. */
  onTemp?: (rel: string) => void;
}

/**
 * atomicWriteSync's replace with the slow part off the main thread: the temp file is created, written, fsynced
 * and closed in libuv's pool (an fsync on a shared disk took 190 ms, all of it a frozen screen when done
 * synchronously), then the directory is fsynced there too. The same containment as the sync one: the directory
 * is opened under root without following a symlink out (a few cached lookups, done synchronously) and held open
 * until the end; the target is checked for a symlink or a directory before the temp is made and again before the
 * rename; OMC's temp naming, O_EXCL 0600. The rename itself, the commit point, stays on the main thread, so a
 * write still in the pool can never land after a synchronous write made later (commit() says whether it may).
 * Rejects on failure with the temp removed.
 */
export async function atomicWrite(
  root: string,
  rel: string,
  content: string | Uint8Array,
  opts: AsyncWriteOptions = {},
): Promise<boolean> {
  const abs = resolveUnder(root, rel);
  const name = path.basename(abs);
  const relDir = path.dirname(toRel(root, abs)) || '.';
  const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const dir = openDirUnder(root, relDir, { create: opts.mkdir });
  try {
    assertReplaceable(dir, name, rel);
    const tmp = `.${name}.tmp.${randomUUID()}`;
    opts.onTemp?.(path.join(relDir, tmp));
    let fh: Awaited<ReturnType<typeof createExclusiveAsync>> | null = null;
    try {
      fh = await createExclusiveAsync(dir, tmp);
      let off = 0;
      while (off < data.length) off += (await fh.write(data, off, data.length - off)).bytesWritten;
      if ((await fh.stat()).size !== data.length) throw new Error('short write');
      await fh.sync();
      await fh.close();
      fh = null;
      assertReplaceable(dir, name, rel); // time has passed since the first look
      if (opts.commit && !opts.commit()) {
        discardTemp(null, dir.at(tmp));
        return false;
      }
      fs.renameSync(dir.at(tmp), dir.at(name));
    } catch (e) {
      if (fh) await fh.close().catch(() => {});
      discardTemp(null, dir.at(tmp));
      throw e;
    }
    await dir.syncAsync();
    return true;
  } catch (e) {
    throw dir.explain(e);
  } finally {
    dir.close();
  }
}

/** Best-effort cleanup after a failed or finished temp-file write: close the descriptor if open, remove the temp. */
export function discardTemp(fd: number | null, tmp: string): void {
  if (fd !== null) {
    try {
      fs.closeSync(fd);
    } catch {
      /* already failing */
    }
  }
  try {
    fs.unlinkSync(tmp);
  } catch {
    /* never created, or already renamed */
  }
}

/**
 * Deletes a file under root; missing is fine. The unlink happens in the
 * directory held open (see ContainedDir) and never follows a symlink: a
 * symlinked directory on the way out of the root is refused, a symlink as the
 * last component is removed itself, a directory is not removed. `commit`, as atomicWriteSync's: asked with what is
 * there right before the unlink; false leaves it (and returns false).
 */
export function unlinkUnder(root: string, rel: string, commit?: (current: fs.Stats | null) => boolean): boolean {
  const abs = resolveUnder(root, rel);
  try {
    return withDirUnder(root, path.dirname(toRel(root, abs)) || '.', (dir) => {
      if (commit && !commit(lstatOrNull(dir.at(path.basename(abs))))) return false;
      fs.unlinkSync(dir.at(path.basename(abs)));
      return true;
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}

/**
 * Sets a regular file's modification (and access) time under root to `atMs`, its content untouched: one system
 * call, no temp and no fsync, for a file whose time says its writer is alive (the status cache's heartbeat). In the
 * directory held open, never through a symlink (lutimes: a link swapped in is touched itself, not its target).
 * False when there is no regular file by that name; throws on other failures.
 */
export function touchUnder(root: string, rel: string, atMs: number): boolean {
  const abs = resolveUnder(root, rel);
  try {
    return withDirUnder(root, path.dirname(toRel(root, abs)) || '.', (dir) => {
      const at = dir.at(path.basename(abs));
      if (!fs.lstatSync(at).isFile()) return false;
      const t = atMs / 1000;
      fs.lutimesSync(at, t, t);
      return true;
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}

/**
 * Makes an empty marker file under root that must not exist yet (O_EXCL, 0600, never through a symlink): true when
 * this call made it, false when the name is already taken. Two processes racing for it: exactly one gets true.
 */
export function createMarkerUnder(root: string, rel: string): boolean {
  const abs = resolveUnder(root, rel);
  try {
    withDirUnder(root, path.dirname(toRel(root, abs)) || '.', (dir) => {
      fs.closeSync(createExclusive(dir, path.basename(abs)));
    });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/**
 * Appends one record to a log under root in a single write(2) on an O_APPEND
 * descriptor, as OMC's appendFileSync does (no lock: concurrent appenders of
 * one short line do not interleave). The directory must already exist and be
 * inside the real root; a symlinked target is refused. Throws on failure.
 *
 * The log is a file omc-top did not create, so it is checked before it is opened and again on the
 * descriptor: a FIFO there would otherwise hold open(2) for good (until a reader comes), with the
 * event loop stopped, so q, Ctrl-C and SIGTERM would do nothing. O_NONBLOCK makes that open answer at
 * once (ENXIO without a reader), and the descriptor check refuses whatever was swapped in meanwhile.
 */
export function appendUnderSync(root: string, rel: string, text: string): void {
  const abs = resolveUnder(root, rel);
  const shown = quotePath(toRel(root, abs));
  // The directory is held open (ContainedDir), so a parent swapped for a symlink cannot redirect the append.
  withDirUnder(root, toRel(root, path.dirname(abs)), (dir) => {
    const at = dir.at(path.basename(abs));
    const before = lstatOrNull(at);
    if (before && !before.isFile()) throw notAppendable(shown, before);
    let fd: number;
    try {
      fd = fs.openSync(at, APPEND_FLAGS, 0o600);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // ELOOP: a symlink as the last component (O_NOFOLLOW); ENXIO: a FIFO with no reader, or a socket.
      if (code === 'ELOOP') throw new Error(`refusing to append to ${shown}: it is a symlink`, { cause: e });
      if (code === 'ENXIO')
        throw new Error(`refusing to append to ${shown}: not a regular file (a FIFO or a socket)`, { cause: e });
      throw e;
    }
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile()) throw notAppendable(shown, st);
      const data = Buffer.from(text, 'utf8');
      const n = fs.writeSync(fd, data, 0, data.length);
      if (n !== data.length) throw new Error(`short append to ${shown} (${n} of ${data.length} bytes)`);
    } finally {
      fs.closeSync(fd);
    }
  });
}

/** Write-only, append, create 0600; never through a symlink, never waiting on a FIFO or a device. */
const APPEND_FLAGS =
  fs.constants.O_WRONLY |
  fs.constants.O_APPEND |
  fs.constants.O_CREAT |
  (fs.constants.O_NOFOLLOW ?? 0) |
  (fs.constants.O_NONBLOCK ?? 0);

/** What is at a path (not following a link), or null when nothing is. */
function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

function notAppendable(shown: string, st: fs.Stats): Error {
  const what = st.isSymbolicLink()
    ? 'it is a symlink'
    : st.isDirectory()
      ? 'it is a directory'
      : `not a regular file (${fileKind(st)})`;
  return new Error(`refusing to append to ${shown}: ${what}`);
}

/**
 * Removes the temps of `rel` (OMC's `.<name>.tmp.<uuid>` naming) older than `maxAgeMs`: an omc-top killed between
 * making its temp and the rename leaves one, and nothing else would ever remove it. A younger temp may be another
 * monitor's write in flight and is left alone. Regular files only, named in the directory held open, never through
 * a symlink. Best effort: returns how many were removed.
 */
export function sweepStaleTemps(root: string, rel: string, maxAgeMs: number, nowMs = Date.now()): number {
  try {
    const abs = resolveUnder(root, rel);
    const prefix = `.${path.basename(abs)}.tmp.`;
    return withDirUnder(root, path.dirname(toRel(root, abs)) || '.', (dir) => {
      let removed = 0;
      for (const name of dir.names()) {
        if (!name.startsWith(prefix)) continue;
        try {
          const st = fs.lstatSync(dir.at(name));
          if (!st.isFile() || nowMs - st.mtimeMs <= maxAgeMs) continue;
          fs.unlinkSync(dir.at(name));
          removed++;
        } catch {
          /* gone meanwhile, or not ours to remove */
        }
      }
      return removed;
    });
  } catch {
    return 0; // no directory yet (or a name outside the root, which the write itself refuses): nothing swept
  }
}
