/**
 * A `--host` project's line in the fleet carries that machine's plan quota, as its stream's `quota` line says it
 * (the remote monitor header's narrow words: no countdown that would go stale here), against the fake ssh
 * (test/fleet/fake-ssh.mjs). A line that is not what `watch --json` writes is a bad line, counted, not shown.
 */
import { describe, expect, it } from 'vitest';
import { parseRemoteLine } from '../../src/fleet/remote-lines.js';
import { groupLine } from '../../src/panes/fleet/layout.js';
import { waitFor } from '../helpers/fixtures.js';
import { fakeSshFleet } from './fake-ssh-rig.js';

describe("a --host project's plan quota", () => {
  it("shows on its group line in that machine's header words", async () => {
    const quota = {
      text: '5h 100% until 13:11 · wk 83% ↻2d23h',
      short: '5h 100% until 13:11 · wk 83%',
      limited_until: null,
    };
    const { local, page } = fakeSshFleet({ mode: 'stall', quota: JSON.stringify(quota) });
    // The row comes first, then the quota line, then ready: waited for until the line says it.
    const line = await waitFor(
      () => {
        const g = local.getSnapshot().groups.find((x) => x.host !== null);
        const text = g ? groupLine(g, 200, false) : '';
        return text.includes('5h 100%') ? text : null;
      },
      { timeoutMs: 20_000, what: 'the host group with its quota' },
    );
    expect(line).toContain('shop  (1 session · 5h 100% until 13:11 · wk 83%)');
    // The serve page's root for that host says the same words (its countdown would be stale here: not sent on).
    expect(page()?.quota).toEqual({ text: quota.short, short: quota.short, limited_until: null });
  });

  it("carries the time that machine's rate limit ends to the serve page", async () => {
    const until = '2026-12-06T13:11:00.000Z';
    const quota = { text: '5h 100% ↻2h', short: '5h 100% until 13:11', limited_until: until };
    const { page } = fakeSshFleet({ mode: 'stall', quota: JSON.stringify(quota) });
    const root = await waitFor(() => (page()?.quota ? page() : null), {
      timeoutMs: 20_000,
      what: "the host's root with its quota",
    });
    expect(root?.quota).toEqual({ text: quota.short, short: quota.short, limited_until: until });
  });

  it('takes the narrow words, control sequences cleaned out; refuses a line of another shape', () => {
    const line = (quota: unknown) => JSON.stringify({ v: 1, type: 'quota', at: 'x', project: 'shop', quota });
    expect(parseRemoteLine(line({ text: 'a ↻1h', short: '5h 9%\u001b[2J', limited_until: null }))).toEqual({
      kind: 'quota',
      project: 'shop',
      short: '5h 9%',
      limitedUntilMs: null,
    });
    expect(parseRemoteLine(line(null))).toEqual({ kind: 'quota', project: 'shop', short: null, limitedUntilMs: null });
    // A limit's end that is no time is no time; one that is, is taken.
    expect(parseRemoteLine(line({ text: 'a', short: '5h 100%', limited_until: 'soon' }))).toMatchObject({
      limitedUntilMs: null,
    });
    expect(parseRemoteLine(line({ text: 'a', short: '5h 100%', limited_until: '2026-12-06T13:11:00Z' }))).toMatchObject(
      {
        limitedUntilMs: Date.parse('2026-12-06T13:11:00Z'),
      },
    );
    expect(parseRemoteLine(line({ text: 'no short' })).kind).toBe('bad');
  });
});
