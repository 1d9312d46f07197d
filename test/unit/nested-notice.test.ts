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

  it('is one line without control bytes when a directory name holds a newline or an escape sequence', () => {
    const rel = 'a\u001b[31mred\nx/.omc';
    const notice = nestedNotice(
      { roots: [{ rel, abs: `/home/u/repo/${rel}`, sessions: 1 }], truncated: false },
      '/home/u/repo',
    );
    expect(notice).toContain('OMC state also in ared x/.omc (1 session)');
    expect(notice).not.toMatch(/[\u0000-\u001f\u007f]/);
  });

  it('in the monitor, says what O does instead, in two lines at 60 columns', () => {
    const notice = nestedMonitorNotice(found) as string;
    expect(notice).toBe(
      'OMC state also in packages/api/.omc (3 sessions, from hooks started in packages/api/): O switches to it',
    );
    expect(notice.length).toBeLessThanOrEqual(2 * 60);
  });
});
