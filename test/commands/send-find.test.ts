/** `send`'s session lookup: an id, a unique prefix of at least 4 characters, or a Claude name; a shorter prefix says so. */
import { describe, expect, it } from 'vitest';
import { findSession } from '../../src/commands/send.js';
import type { RegistryEntry } from '../../src/store/claude/registry.js';

const entry = (sessionId: string, name: string | null = null): RegistryEntry => ({
  rel: `sessions/${sessionId.slice(0, 4)}.json`,
  pid: 2 ** 22 + 17, // no such process: judged gone, found all the same
  sessionId,
  cwd: '/p',
  startedAt: 1,
  procStart: null,
  pidDomain: null,
  version: null,
  kind: null,
  entrypoint: null,
  status: null,
  waitingFor: null,
  statusUpdatedAt: null,
  updatedAt: null,
  name,
  tmux: null,
  messagingSocketPath: null,
  mtimeMs: 1,
});

describe('send: which session', () => {
  const entries = [entry('bbbbbbbb-1111-4222-8333-444444444444', 'api'), entry('cccccccc-1111-4222-8333-444444444444')];
  it('a prefix of 4 or more, or a name, finds it; a shorter prefix says it is too short, not that nothing is there', () => {
    expect(findSession(entries, 'bbbb')).toMatchObject({ sessionId: entries[0]!.sessionId });
    expect(findSession(entries, 'api')).toMatchObject({ sessionId: entries[0]!.sessionId });
    expect(findSession(entries, 'bb')).toBe(
      '"bb" is too short to name a session: give at least 4 characters of its id (or its name)',
    );
    expect(findSession(entries, 'zz')).toBe('no registered Claude session is "zz"');
  });
});
