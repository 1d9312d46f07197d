/** What a safe read returns: the text and what was seen of the file, or a specific reason it was not read. */

export type ReadFailureCode = 'missing' | 'not-a-file' | 'outside-root' | 'too-large' | 'permission' | 'binary' | 'io';

export interface ReadOk {
  ok: true;
  text: string;
  bytes: number;
  mtimeMs: number;
  /**
   * The inode's change time: a chmod or chown moves it and no byte (a file that became unreadable, or readable
   * again, to this user). Absent from reads that do not come from a descriptor's stat.
   */
  ctimeMs?: number;
  ino: number;
  /** The device the file is on: with ino, size and the times, the identity a writer checks before replacing it. */
  dev?: number;
  /** Bytes that were not valid UTF-8 were replaced with U+FFFD. */
  invalidUtf8: boolean;
  /** A leading byte-order mark was removed. */
  bom: boolean;
  /** Owner, permission bits and link count, from the descriptor that was read (who could have written it). */
  uid: number;
  mode: number;
  nlink: number;
}
export interface ReadFailure {
  ok: false;
  code: ReadFailureCode;
  message: string;
}
export type ReadResult = ReadOk | ReadFailure;

export interface DirEntry {
  name: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
  /**
   * The name on disk is not valid UTF-8: `name` shows the bad bytes as U+FFFD
   * and cannot be used to open the entry. Domains report it instead of letting
   * it vanish.
   */
  invalidName?: true;
  /**
   * With invalidName: the name's bytes, each one that is not UTF-8 as `\xNN` and every control escaped
   * (escape-bytes.ts), the text that names this entry and no other (two names can decode to one `name`).
   */
  shownName?: string;
  /** With invalidName: the name's bytes, which open it (safe-fs `readTextByNameSync`, `statByNameSync`). */
  nameBytes?: Buffer;
}

/**
 * A failure that says nothing of what OMC's hooks see: this process was refused (EACCES/EPERM), the disk failed (EIO,
 * any other errno), or omc-top's own safety rules kept it from the bytes (its size cap: OMC reads any size; a symlink
 * out of the root: OMC follows it). The file is there and OMC's hooks (run as the file's owner) read it: what it
 * holds is unknown, never "absent". The other failures (missing, binary, not a file, a symlink loop or a chain
 * longer than the kernel follows) are the same for every reader.
 */
export const notReadHere = (code: ReadFailureCode): boolean =>
  code === 'permission' || code === 'io' || code === 'too-large' || code === 'outside-root';
