/**
 * A file held open to be read again and again without looking its path up each time: one positioned read of an
 * open descriptor instead of path resolution, open, fstat and close. For procfs, where a held descriptor stays
 * tied to the process it was opened for: `/proc/<pid>/…` held open reads ESRCH once that process is gone,
 * even when its pid has been given to another one since. Opened like every other read (contained under the
 * root, no symlink at the end, non-blocking, regular files only, checked on the descriptor). Never throws.
 */
import fs from 'node:fs';
import { fileKind } from './errors.js';
import { openRegularSync } from './open.js';
import type { ReadFailure } from './types.js';

export interface HeldFile {
  /** Whether it can still be read (one byte): false when what it was opened for is gone, null when unsure. */
  readable(): boolean | null;
  close(): void;
}

const one = Buffer.alloc(1);

export function holdFileSync(root: string, rel: string): { ok: true; file: HeldFile } | ReadFailure {
  const o = openRegularSync(root, rel, { notFile: (st) => `is not a regular file (${fileKind(st)})` });
  if (!o.ok) return o;
  const { fd } = o;
  let open = true;
  const file: HeldFile = {
    readable() {
      if (!open) return false;
      try {
        fs.readSync(fd, one, 0, 1, 0);
        return true;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        return code === 'ESRCH' || code === 'ENOENT' ? false : null;
      }
    },
    close() {
      if (!open) return;
      open = false;
      try {
        fs.closeSync(fd);
      } catch {
        /* already closed */
      }
    },
  };
  return { ok: true, file };
}
