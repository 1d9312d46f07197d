/**
 * One cancel, one row, whichever omc-top made it (sweep 10 §6, §10). Claude is idle at the cancel, so no stop can be
 * seen: the monitor that made the cancel showed `cancelled ✓ ralph · Claude idle` in its row and detail, while a
 * monitor that did not make it (the serve page's cancel, seen in a TUI) read `no modes left (cancel signal from
 * omc-top)`, and serve / `--json` showed no ✓. Now the two monitors' rows are the same text, in the window and once
 * settled, and no ✓ is shown for a stop nobody saw.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { executeCancel } from '../../src/store/cancel/execute.js';
import { planCancel } from '../../src/store/cancel/plan.js';
import { writeRegistry } from '../helpers/claude-files.js';
import { waitFor } from '../helpers/fixtures.js';
import { S, cancelScene, claudeNow, mountScene, realHook, sceneStore } from '../helpers/cancel-surfaces.js';
import type { MountedApp } from '../helpers/mount-app.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Both monitors past their start-up (the footer's `starting · reading …`): what they show is then all they read. */
async function live(...apps: MountedApp[]): Promise<void> {
  for (const app of apps)
    await waitFor(() => (/cccccccc/.test(app.text()) && !app.text().includes('starting') ? true : null), {
      what: `a monitor live\n${app.text()}`,
    });
}

/** S's row as a monitor draws it, its counts said as "N" (the two are read a moment apart). */
function row(app: MountedApp): string {
  const line = app.lines().find((l) => l.includes(S.slice(0, 8))) ?? '(no row)';
  return line.replace(/\d+[sm]\b/g, 'N').trimEnd();
}

describe('a cancel of an idle Claude reads the same in the monitor that made it and in one that did not', () => {
  it('in the window (c y): the same row in both, no ✓ in the row or the detail of the one that made it', async () => {
    const s = cancelScene(true, cleanups);
    claudeNow(s, 'idle');
    const made = await mountScene(sceneStore(s, cleanups), cleanups);
    const other = await mountScene(sceneStore(s, cleanups), cleanups);
    await live(made, other);
    await made.press('c');
    await made.waitForText('y: cancel the loop');
    await made.press('y');
    expect(realHook(s).decision).toBe('stop');
    await made.waitForText(/▸ ended \d+s\s+cccccccc/);
    await other.waitForText(/▸ ended \d+s\s+cccccccc/);
    expect(row(made)).toBe(row(other));
    expect(row(made)).not.toContain('✓');
    await made.press('\r');
    const detail = await made.waitForText(/omc-top cancel: /);
    expect(detail).not.toContain('✓');
  });

  it('settled (the window over): "cancelled" in both rows, the same text, no ✓', async () => {
    const s = cancelScene(true, cleanups);
    const st = sceneStore(s, cleanups);
    const made = await mountScene(st, cleanups);
    const other = await mountScene(sceneStore(s, cleanups), cleanups);
    await live(made, other);
    // This monitor's cancel, made 40 s ago (its window is over), Claude idle since before it.
    const at = Date.now() - 40_000;
    writeRegistry(s.cfg, s.claudePid as number, S, { status: 'idle', cwd: s.dir, statusUpdatedAt: at - 5_000 });
    const planned = planCancel(s.root, { sessionId: S, mode: null, pauseOnly: false }, at, { rules: '5.5.0' });
    if (!planned.ok) throw new Error(planned.message);
    const out = await executeCancel(s.root, planned.plan, { now: () => at });
    if (out.kind !== 'done') throw new Error(out.kind);
    await waitFor(() => (st.claude.getSnapshot().bySession.get(S)?.process?.status === 'idle' ? true : null), {
      what: 'Claude idle in the monitor that cancels',
    });
    expect(st.cancels.track(out)).toMatchObject({ phase: 'cancelled', final: true });
    await made.waitForText(/▸ cancelled\s+cccccccc/);
    await other.waitForText(/▸ cancelled\s+cccccccc/);
    expect(row(made)).toBe(row(other));
    expect(made.text()).not.toContain('✓');
  });
});
