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
}

/**
 * A failure that says nothing of the file's bytes: this process was refused (EACCES/EPERM) or the disk failed (EIO,
 * any other errno). The file is there, and another process (OMC's hooks, run as the file's owner) may read it fine:
 * what it holds is unknown, never "absent". The other failures (missing, binary, too large, a symlink out of the
 * root) are the same for every reader.
 */
export const notReadHere = (code: ReadFailureCode): boolean => code === 'permission' || code === 'io';
