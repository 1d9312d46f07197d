/**
 * The demo shows History: its simulator writes OMC 5.6's run ledger (past
 * runs at start, a start line for every ralph it starts and an end line when
 * one finishes), and the History pane at 80x24 lists them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { vi } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
// @ts-expect-error plain ESM without types
import { makeContext } from '../../demo/lib.mjs';
// @ts-expect-error plain ESM without types
import * as sessionsSim from '../../demo/sim/sessions.mjs';

describe('demo simulator: run ledger', () => {
  it('History has past runs from the start, and a ralph that finishes meanwhile gets its end line', async ({
    app,
    emptyProject,
  }) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let stop: () => void = () => undefined;
    try {
      stop = sessionsSim.start(makeContext(emptyProject.root, emptyProject.dir));
      vi.advanceTimersByTime(60_000);
    } finally {
      stop();
      vi.useRealTimers();
    }
    const ledger = fs
      .readFileSync(path.join(emptyProject.root, 'state', 'runs', 'ledger.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; outcome?: string; sessionId: string; run: string });
    const ends = ledger.filter((l) => l.event === 'end');
    expect(new Set(ends.map((e) => e.outcome))).toEqual(new Set(['completed', 'cancelled', 'failed']));
    // More ends than the four past runs: a ralph the simulator started finished within the minute.
    expect(ends.length).toBeGreaterThan(4);
    for (const e of ends) expect(ledger.some((l) => l.event === 'start' && l.sessionId === e.sessionId)).toBe(true);

    const a = await app({ root: emptyProject.root, columns: 80, rows: 24 });
    await a.press('R');
    await a.waitForText(/MODE +SESSION/);
    await a.waitForText(/ralph .*failed/);
    const rows = a.lines().filter((l) => /^[▸ ] ralph /.test(l));
    expect(rows.length).toBeGreaterThanOrEqual(5);
    expect(a.text()).not.toContain('No runs yet');
  });
});
