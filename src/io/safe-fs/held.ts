/**
 * A file held open to be read again and again without looking its path up each time: one positioned read of an
 * open descriptor instead of path resolution, open, fstat and close. For procfs, where a held descriptor stays
 * tied to the process it was opened for: `/proc/<pid>/…` held open reads ESRCH once that process is reaped,
 * even when its pid has been given to another one since. Opened like every other read (contained under the
 * root, no symlink at the end, non-blocking, regular files only, checked on the descriptor). Never throws.
 */
import fs from 'node:fs';
import { fileKind } from './errors.js';
import { openRegularSync } from './open.js';
import type { ReadFailure } from './types.js';

export interface HeldFile {
  /** Its first byte, read again (-1 when empty); 'gone' when what it was opened for is gone; null when unsure. */
  firstByte(): number | 'gone' | null;
  close(): void;
}

const one = Buffer.alloc(1);

export function holdFileSync(root: string, rel: string): { ok: true; file: HeldFile } | ReadFailure {
  const o = openRegularSync(root, rel, { notFile: (st) => `is not a regular file (${fileKind(st)})` });
  if (!o.ok) return o;
  const { fd } = o;
  let open = true;
  const file: HeldFile = {
    firstByte() {
      if (!open) return 'gone';
      try {
        return fs.readSync(fd, one, 0, 1, 0) === 1 ? (one[0] as number) : -1;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        return code === 'ESRCH' || code === 'ENOENT' ? 'gone' : null;
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
