/**
 * A cancel that fails half-way on a full disk: OMC's cancel signal is written, then the loop's state file cannot be
 * changed (its mutation lock cannot be written). omc-top knows its own write failed, so it says the cancel failed,
 * at once and on every surface, instead of counting the signal's 30 s down as if the cancel were in flight: the row
 * says `cancel failed` (never `cancel 29s`), the message and the detail say what was and was not written, and the
 * other processes (a second monitor's row, `--json`, `status --tmux --fresh`, `watch --json`), reading omc-top's
 * record of the cancel, say it too (one item, reason `cancel failed`) while the signal's window is still open.
 *
 * The fault is injected into `fs` as in save-errors.test.tsx (test/helpers/fault-fs.ts).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ownStateDir } from '../../src/io/state-dir.js';
import { BUNDLE, WatchStream } from '../helpers/attention-surfaces.js';
import { injectFault, strayWriteArtifacts } from '../helpers/fault-fs.js';
import { waitFor, writeLiveRalph } from '../helpers/fixtures.js';
import { describe, expect, it, KEY, onTestFinished } from '../helpers/it.js';

const S = 'cccccccc-1111-4222-8333-444444444444';
const RALPH = `state/sessions/${S}/ralph-state.json`;
const SIGNAL = `state/sessions/${S}/cancel-signal-state.json`;

describe('a cancel cut short by a full disk', () => {
  it('says "cancel failed" on the row, in the message and the detail, and in every other process; no countdown', async ({
    emptyProject: p,
    tempDir,
    newStore,
    mount,
  }) => {
    const scratch = tempDir('omc-top-half-cancel-');
    const env = { CLAUDE_CONFIG_DIR: path.join(scratch, 'no-claude'), XDG_STATE_HOME: path.join(scratch, 'xdg') };
    writeLiveRalph(p, { sessionId: S, iteration: 3, max: 10, projectPath: p.dir });
    const ralphBefore = fs.readFileSync(path.join(p.root, RALPH), 'utf8');
    const store = newStore({ root: p.root, projectDir: p.dir, stateDir: ownStateDir(env), claude: { env } });
    store.start();
    const a = mount(store, { columns: 100, rows: 30 });
    await a.ready;
    await a.waitForText(/▸ enforced\s+cccccccc/);
    await a.press('c');
    await a.waitForText('y: cancel the loop');

    // Full from here on for the loop's file (its lock record cannot be written); the signal still fits.
    const fault = injectFault({ code: 'ENOSPC', step: 'write', path: (abs) => abs.includes('ralph-state.json') });
    onTestFinished(() => fault.restore());
    await a.press('y');
    // The message wraps: the reason first, then what was written and what was not.
    await a.waitForText(
      /✗ cancel failed: disk full \(ENOSPC\): written:\s+\S+\/cancel-signal-state\.json; not written:\s+\S+\/ralph-state\.json/,
    );
    fault.restore();
    expect(fault.hits.length, 'the fault was hit').toBeGreaterThan(0);

    // What was and was not written, as the message says.
    expect(fs.existsSync(path.join(p.root, SIGNAL))).toBe(true);
    expect(fs.readFileSync(path.join(p.root, RALPH), 'utf8')).toBe(ralphBefore);
    expect(strayWriteArtifacts(p.root)).toEqual([]);

    // The row says it failed, and it does not count down while the signal is in force.
    await a.waitForText(/▸ cancel failed\s+cccccccc/);
    expect(a.text()).not.toMatch(/cancel \d+s|pause \d+s/);
    await a.press(KEY.enter);
    await a.waitForText(/part of omc-top's cancel could not be written \(disk full \(ENOSPC\)/);

    // A second monitor, started now, reads omc-top's record of the cancel: its row says the same, no countdown.
    const second = newStore({ root: p.root, projectDir: p.dir, stateDir: ownStateDir(env), claude: { env } });
    second.start();
    const b = mount(second, { columns: 100, rows: 30 });
    await b.ready;
    await b.waitForText(/▸ cancel failed\s+cccccccc/);
    expect(b.text()).not.toMatch(/cancel \d+s|pause \d+s/);

    // Every other process reads omc-top's record of the cancel and the disk: one item, `cancel failed`, inside the
    // signal's window (the signal written just now is in force for 30 s).
    const run = (args: string[]) =>
      execFileSync(process.execPath, [BUNDLE, ...args, '--root', p.root], {
        cwd: p.dir,
        env: { ...process.env, ...env },
        encoding: 'utf8',
      });
    const json = JSON.parse(run(['--json'])) as {
      attention: { needs_you: number; items: { reason: string; text: string }[] };
    };
    expect(json.attention.needs_you).toBe(1);
    expect(json.attention.items[0]).toMatchObject({
      reason: 'cancel failed',
      text: expect.stringMatching(/^cancel failed: ralph is still active .*disk full \(ENOSPC\)/),
    });
    expect(run(['status', '--tmux', '--fresh'])).toMatch(/needs you: 1/);
    const watch = new WatchStream(p.root, env);
    onTestFinished(() => watch.stop());
    await waitFor(() => watch.count() === 1 || null, { timeoutMs: 20_000, what: `watch --json 1 (${watch.err})` });
    // Its snapshot's transition of the cancel's verdict, or an attention line's item, names the reason.
    const said = watch
      .lines()
      .flatMap((l) => [
        l.needs,
        ...(Array.isArray(l.items) ? (l.items as { reason?: unknown }[]) : []).map((i) => i.reason),
      ]);
    expect(said).toContain('cancel failed');
  });
});
