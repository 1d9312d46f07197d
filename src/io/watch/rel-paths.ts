/** Paths under the watched root as the domains name them: relative, POSIX separators. */
import path from 'node:path';

/** `abs` relative to `root` with `/` separators; starts with `..` when outside it. */
export function relOf(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join('/');
}

/** `root` joined with `rel` (POSIX: concatenation, not path.relative per entry of a 10,000-entry walk). */
export function absOf(root: string, rel: string): string {
  return rel === '' ? root : path.join(root, ...rel.split('/'));
}
