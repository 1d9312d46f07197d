/**
 * A `--host` project's line in the fleet carries that machine's plan quota, as its stream's `quota` line says it
 * (the remote monitor header's narrow words: no countdown that would go stale here), against the fake ssh
 * (test/fleet/fake-ssh.mjs). A line that is not what `watch --json` writes is a bad line, counted, not shown.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseHostSpec } from '../../src/config/host-spec.js';
import { RemoteFleet } from '../../src/fleet/remotes.js';
import { LocalFleet } from '../../src/fleet/local.js';
import { parseRemoteLine } from '../../src/fleet/remote-lines.js';
import { groupLine } from '../../src/panes/fleet/layout.js';
import { waitFor } from '../helpers/fixtures.js';

const FAKE_SSH = path.join(import.meta.dirname, 'fake-ssh.mjs');
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe("a --host project's plan quota", () => {
  it("shows on its group line in that machine's header words", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-fake-ssh-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const quota = {
      text: '5h 100% until 13:11 · wk 83% ↻2d23h',
      short: '5h 100% until 13:11 · wk 83%',
      limited_until: null,
    };
    fs.writeFileSync(path.join(dir, 'mode'), 'stall');
    fs.writeFileSync(path.join(dir, 'quota'), JSON.stringify(quota));
    const local = new LocalFleet({ watch: 'none', local: false, env: { XDG_STATE_HOME: path.join(dir, 'local') } });
    const remote = new RemoteFleet([parseHostSpec('me@devbox:/srv/shop')!], () => local.changed(), {
      ssh: { bin: process.execPath, args: [FAKE_SSH, dir] },
    });
    local.setExtra(() => remote.groups());
    local.start();
    remote.start();
    cleanups.push(() => Promise.all([remote.stop(), local.close()]));
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
  });

  it('takes the narrow words, control sequences cleaned out; refuses a line of another shape', () => {
    const line = (quota: unknown) => JSON.stringify({ v: 1, type: 'quota', at: 'x', project: 'shop', quota });
    expect(parseRemoteLine(line({ text: 'a ↻1h', short: '5h 9%\u001b[2J', limited_until: null }))).toEqual({
      kind: 'quota',
      project: 'shop',
      short: '5h 9%',
    });
    expect(parseRemoteLine(line(null))).toEqual({ kind: 'quota', project: 'shop', short: null });
    expect(parseRemoteLine(line({ text: 'no short' })).kind).toBe('bad');
  });
});
