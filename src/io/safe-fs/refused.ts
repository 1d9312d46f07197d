/**
 * A read refused by the kernel on this side (permission, an I/O error): the words every safe-fs failure uses for
 * it, in one place, for errors.ts (a failed open or listing) and paths.ts (a directory on the way that could not
 * be resolved), which cannot import each other.
 */
import type { ReadFailureCode } from './types.js';

/** The failure for a refusal errno (EACCES, EPERM, EIO), or null for any other. */
export function refusal(errno: string | undefined): { code: ReadFailureCode; message: string } | null {
  if (errno === 'EACCES' || errno === 'EPERM')
    return {
      code: 'permission',
      message: 'permission denied (OMC writes its files mode 0600; run omc-top as the same user)',
    };
  if (errno === 'EIO') return { code: 'io', message: 'read failed (EIO)' };
  return null;
}
