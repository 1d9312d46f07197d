/**
 * Whether a stop can be undone (io/job-shell.ts), over process trees as /proc describes them: an interactive shell
 * (the job in a group of its own), npx between the shell and omc-top (in the job's group), tmux starting omc-top
 * straight (a session of its own), `bash -c` without job control (the shell in the same group), a parent gone.
 */
import { describe, expect, it } from 'vitest';
import { idsFromStat, inForeground, shellCanResume } from '../../src/io/job-shell.js';

type Ids = { ppid: number; pgrp: number; session: number; tpgid?: number };
const tree = (procs: Record<string, Ids>) => (pid: number | 'self') => procs[String(pid)] ?? null;

describe('shellCanResume', () => {
  it('under an interactive shell: yes, also with npx and sh in the job between them', () => {
    const shell = { ppid: 1, pgrp: 100, session: 100 };
    expect(shellCanResume('linux', tree({ self: { ppid: 100, pgrp: 200, session: 100 }, 100: shell }))).toBe(true);
    expect(
      shellCanResume(
        'linux',
        tree({
          self: { ppid: 202, pgrp: 200, session: 100 },
          202: { ppid: 200, pgrp: 200, session: 100 },
          200: { ppid: 100, pgrp: 200, session: 100 },
          100: shell,
        }),
      ),
    ).toBe(true);
  });

  it('started straight by tmux, by bash -c, or with its parent gone: no', () => {
    // tmux made the session; omc-top leads it, its parent (the tmux server) is in another session.
    expect(
      shellCanResume(
        'linux',
        tree({ self: { ppid: 50, pgrp: 300, session: 300 }, 50: { ppid: 1, pgrp: 50, session: 50 } }),
      ),
    ).toBe(false);
    // bash -c (no job control) leads the session and keeps omc-top in its own group.
    expect(
      shellCanResume(
        'linux',
        tree({
          self: { ppid: 300, pgrp: 300, session: 300 },
          300: { ppid: 50, pgrp: 300, session: 300 },
          50: { ppid: 1, pgrp: 50, session: 50 },
        }),
      ),
    ).toBe(false);
    expect(shellCanResume('linux', tree({ self: { ppid: 999, pgrp: 300, session: 300 } }))).toBe(false);
  });

  it('elsewhere than Linux, or when its own stat cannot be read: stops as before', () => {
    expect(shellCanResume('darwin', () => null)).toBe(true);
    expect(shellCanResume('linux', () => null)).toBe(true);
  });

  it('reads fields 4–6 and 8 past a command name holding spaces and parentheses', () => {
    expect(idsFromStat('123 (a) b (c)) S 7 8 9 0 11')).toEqual({ ppid: 7, pgrp: 8, session: 9, tpgid: 11 });
    expect(idsFromStat('garbage')).toBeNull();
    expect(idsFromStat('1 (x) S -1 a 3')).toBeNull();
  });
});

describe('inForeground', () => {
  it('is whether the terminal foreground group (stat field 8) is our group: no after `bg`', () => {
    expect(inForeground('linux', tree({ self: { ppid: 100, pgrp: 200, session: 100, tpgid: 200 } }))).toBe(true);
    expect(inForeground('linux', tree({ self: { ppid: 100, pgrp: 200, session: 100, tpgid: 100 } }))).toBe(false);
  });

  it('when it cannot be told (no terminal, no /proc, another system): yes, as before', () => {
    expect(inForeground('linux', tree({ self: { ppid: 1, pgrp: 200, session: 200, tpgid: -1 } }))).toBe(true);
    expect(inForeground('linux', () => null)).toBe(true);
    expect(inForeground('darwin', () => null)).toBe(true);
  });
});
