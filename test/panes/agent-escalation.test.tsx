/**
 * Stop escalation in the real App: a loop that OMC keeps re-arming survives
 * two verified cancels; then (and only then) I offers SIGINT to the Claude
 * process, after checking pid, start time and cwd; the message says what the
 * registry and the disk said afterwards. The clock is the store's own, moved
 * past each 30 s signal window; every wait is for a condition.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { writeRegistry } from '../helpers/claude-files.js';
import { startClaudeStandIn } from '../helpers/claude-stand-in.js';
import { waitFor } from '../helpers/fixtures.js';
import { rearmingLoop } from '../helpers/rearming-loop.js';

const SID = 'eeeeeeee-1111-4222-8333-000000000005';
let child: ChildProcess | null = null;

afterEach(async () => {
  child?.kill('SIGKILL');
  child = null;
});

const startCli = (cwd: string) => startClaudeStandIn(cwd);

describe('stop escalation', () => {
  it('after two cancels that did not take, I sends SIGINT to the checked process and says what the disk says', async ({
    emptyProject: p,
    mount,
  }) => {
    const cfg = path.join(p.dir, 'claude-config');
    const { clock, rearm, store } = rearmingLoop(p, SID, cfg);
    child = await startCli(p.dir);
    const exited = new Promise<number | null>((r) => child?.once('exit', (code) => r(code)));
    writeRegistry(cfg, child.pid as number, SID, { status: 'busy', cwd: p.dir });
    store.start();
    const a = mount(store, { columns: 120, rows: 30 });
    await a.ready;
    await a.waitForText(/▸ enforced\s+eeeeeeee\S* ralph 3\/10 .* busy/);

    // Not offered before any cancel failed: the key says why.
    await a.press('I');
    await a.waitForText('interrupt is offered after 2 cancels that did not take (this session: 0)');

    const failOnce = async (n: number) => {
      await a.press('c');
      await a.waitForText('y: cancel the loop');
      await a.press('y');
      await a.waitForText(/ended on disk|not ended yet/);
      rearm();
      await a.waitForText('not ended yet: ralph active again');
      // The 30 s window ends with ralph still running: the verdict is final.
      clock.now += 31_000;
      rearm();
      // The verdict's own message comes last (the cancel flow follows the tracker): wait for it.
      await waitFor(
        () => a.ui.getSnapshot().log.filter((l) => l.text.startsWith('cancel did not take:')).length === n,
        {
          what: `cancel ${n} judged not taken`,
          timeoutMs: 15_000,
        },
      );
    };
    await failOnce(1);
    await a.press('I');
    await a.waitForText('(this session: 1)');
    await failOnce(2);
    // The offer comes after the verdict's own message, so it is the one left on the message line.
    await a.waitForText(`cancel did not take 2 times: press I to interrupt Claude (SIGINT to pid ${child.pid}`);

    await a.press('I');
    const dialog = await a.waitForText(`Interrupt Claude (pid ${child.pid}) running session ${SID}?`);
    const said = dialog.replace(/[│\s]+/g, ' ');
    expect(said).toContain(`works in ${p.dir}`);
    // The script's long path may wrap: the words around it say what was proven.
    expect(said).toMatch(/runs as you, node running \/.*@anthropic-ai\/claude-code\/cli\.js, works in/);
    expect(said).toContain(`registry sessions/${child.pid}.json owned by you and writable only by you`);
    await a.press('y');
    expect(await exited).toBe(42);
    // Its registry file is left behind (the stand-in cannot remove it as the CLI does); ralph stays on disk.
    const done = await a.waitForText(`interrupt: Claude (pid ${child.pid}) stopped`);
    expect(done.replace(/\s+/g, ' ')).toMatch(/its registry entry is left behind \(stale\); ralph is still active/);
  });
});
