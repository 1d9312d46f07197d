import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { nestedMonitorNotice, nestedNotice, rootArgFrom } from '../../src/store/sessions/nested-roots.js';

const found = {
  roots: [{ rel: 'packages/api/.omc', abs: '/home/u/repo/packages/api/.omc', sessions: 3 }],
  truncated: false,
};

describe('the --root a nested-root notice offers', () => {
  it('is the project-relative path when omc-top runs at the top of the project', () => {
    expect(nestedNotice(found, '/home/u/repo')).toBe(
      'OMC state also in packages/api/.omc (3 sessions): hooks started in packages/api/ write there; see it with --root packages/api/.omc',
    );
  });

  it('is a path from the directory omc-top runs in, not from the project top', () => {
    expect(nestedNotice(found, '/home/u/repo/src/ui')).toContain('see it with --root ../../packages/api/.omc');
    expect(rootArgFrom('/home/u/repo/packages', '/home/u/repo/packages/api/.omc')).toBe('api/.omc');
  });

  it('is absolute when that is shorter, or when the directory is unknown', () => {
    expect(rootArgFrom('/var/tmp/a/b/c/d/e', '/home/u/repo/packages/api/.omc')).toBe('/home/u/repo/packages/api/.omc');
    expect(rootArgFrom(null, '/home/u/repo/packages/api/.omc')).toBe('/home/u/repo/packages/api/.omc');
  });

  it('names a directory holding a newline or an escape sequence by every byte, in one line without control bytes', () => {
    const rel = 'hz/a\u001b[31mred\nx/.omc';
    const found = { roots: [{ rel, abs: `/tmp/${rel}`, sessions: 1 }], truncated: false };
    const notice = nestedNotice(found, '/tmp') as string;
    // Not `hz/ared x/.omc` (the bytes removed: a directory that does not exist), and a --root a shell takes as it.
    expect(notice).toBe(
      `OMC state also in hz/a\\e[31mred\\nx/.omc (1 session): hooks started in hz/a\\e[31mred\\nx/ write there; see it with --root "$(printf 'hz/a\\033[31mred\\012x/.omc')"`,
    );
    expect(notice).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    const arg = /--root (.*)$/.exec(notice)?.[1] as string;
    // dash (sh on Debian and Ubuntu) reads it as bash does.
    for (const shell of ['/bin/dash', '/bin/bash'])
      expect(execFileSync(shell, ['-c', `printf %s ${arg}`]).toString(), shell).toBe(rel);
    expect(nestedMonitorNotice(found)).toBe(
      'OMC state also in hz/a\\e[31mred\\nx/.omc (1 session, from hooks started in hz/a\\e[31mred\\nx/): O switches to it',
    );
  });

  it('in the monitor, says what O does instead, in two lines at 60 columns', () => {
    const notice = nestedMonitorNotice(found) as string;
    expect(notice).toBe(
      'OMC state also in packages/api/.omc (3 sessions, from hooks started in packages/api/): O switches to it',
    );
    expect(notice.length).toBeLessThanOrEqual(2 * 60);
  });
});
