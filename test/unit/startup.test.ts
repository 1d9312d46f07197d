/** Start-up measures in src/terminal: they must leave the process as Node made it once start-up is over. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/pty.js';

describe('start-up measures', () => {
  it('fetch is hidden while the modules load and is the very same function afterwards', async () => {
    const before = globalThis.fetch;
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
    expect(typeof before).toBe('function');
    const m = await import('../../src/terminal/yoga-without-fetch.js');
    try {
      expect(globalThis.fetch).toBeUndefined();
    } finally {
      m.restoreFetch();
    }
    expect(globalThis.fetch).toBe(before);
    expect(Object.getOwnPropertyDescriptor(globalThis, 'fetch')).toEqual(descriptor);
  });

  it('the bundle (Yoga loaded without fetch) draws nothing wrong for one-shot commands and exits 0', () => {
    const r = spawnSync(process.execPath, [BIN, '--version'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^omc-top \d+\.\d+\.\d+/);
    expect(r.stderr).toBe('');
  });
});
