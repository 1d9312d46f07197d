/**
 * A read error's code decides what a reader concludes. ESRCH comes from a /proc/<pid>/ file opened while its process
 * was a zombie and read after it was reaped: the process is gone, as ENOENT says a moment later. Taken for an I/O
 * failure ("cannot tell"), a Claude killed right after omc-top's hook handed it an answer read as alive, and the
 * monitor said "the hook told Claude: allow" instead of "whether it acted on it is unknown" (a clean-clone run of
 * test/agent/answering.test.ts).
 */
import fs from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { describeErrno } from '../../src/io/safe-fs/errors.js';
import { runningStartIdentity } from '../../src/io/process-start.js';

const errno = (code: string) => Object.assign(new Error(code), { code });

describe('describeErrno', () => {
  it('says a process reaped mid-read is gone (missing), as a vanished file is', () => {
    expect(describeErrno(errno('ESRCH')).code).toBe('missing');
    expect(describeErrno(errno('ENOENT')).code).toBe('missing');
    expect(describeErrno(errno('EIO')).code).toBe('io');
  });

  it.runIf(process.platform === 'linux')('a /proc/<pid>/stat read that meets ESRCH says the process is absent', () => {
    // The process this test runs under is alive; its stat file opens, and the read meets what a reap in between gives.
    const read = vi.spyOn(fs, 'readSync').mockImplementation(() => {
      throw errno('ESRCH');
    });
    try {
      expect(runningStartIdentity(process.ppid)).toBe('absent');
    } finally {
      read.mockRestore();
    }
    expect(runningStartIdentity(process.ppid)).toMatch(/^\d+$/);
  });
});
