/**
 * The cancel key flow in a real terminal (bundled omc-top in a pty, read back
 * through a headless xterm): the dialog, the live countdown on the row, and
 * the verdict once OMC's 30 s signal window is really over.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, SESSION, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { TerminalHarness } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

let h: TerminalHarness | null = null;
let p: TempProject | null = null;
afterEach(() => {
  h?.dispose();
  p?.cleanup();
  h = null;
  p = null;
});

const S = SESSION.ralph;

/** The fixture with the ralph session made live (the first, selected row). */
function project(): TempProject {
  const proj = makeProject({ withFixture: true });
  const rel = path.join(proj.root, 'state', 'sessions', S, 'ralph-state.json');
  writeOmcJson(rel, {
    ...JSON.parse(fs.readFileSync(rel, 'utf8')),
    // The session_id OMC's Stop hook needs (state_write leaves only _meta.sessionId): enforced, the first row.
    session_id: S,
    last_checked_at: new Date().toISOString(),
  });
  return proj;
}

const countdown = (screen: string): number | null => {
  const m = /ended (\d+)s\s+88727f43 no modes left/.exec(screen);
  return m ? Number(m[1]) : null;
};

describe('cancel in a real terminal', () => {
  it(
    'c → dialog with the files → y → live 30 s countdown → "ended" (no Claude seen, so no ✓) when the window is over',
    { timeout: scaled(60_000) },
    async () => {
      p = project();
      h = new TerminalHarness({ cwd: p.dir, cols: 80, rows: 24 });
      await h.waitForText(/▸ enforced\s+88727f43 ralph 3\/10/);
      h.write('c');
      const dialog = await h.waitForText('Cancel ralph + ultrawork of session');
      expect(dialog).toContain('remove ralph-state.json');
      expect(dialog).toContain('y: cancel the loop');
      h.write('y');

      const first = countdown(await h.waitForText(/ended \d+s\s+88727f43 no modes left/));
      const seenAt = Date.now();
      // Nothing was seen to stop: no check mark anywhere.
      expect(h.text()).not.toContain('✓');
      // The countdown is the signal's own: never fewer seconds than are left until the expires_at omc-top wrote
      // (a fixed figure is reached late on a loaded machine), never more than OMC's 30 s window (a frame read late
      // shows a count from before).
      const signal = JSON.parse(
        fs.readFileSync(path.join(p.root, 'state', 'sessions', S, 'cancel-signal-state.json'), 'utf8'),
      ) as { expires_at: string };
      const left = (Date.parse(signal.expires_at) - seenAt) / 1000;
      expect(first).toBeGreaterThanOrEqual(Math.floor(left) - 1);
      expect(first).toBeLessThanOrEqual(30);
      // The countdown is live: it ticks down without any key or file change.
      await h.waitForText(new RegExp(`ended (${(first as number) - 1}|${(first as number) - 2})s\\s+88727f43`), 4_000);
      expect(fs.existsSync(path.join(p.root, 'state', 'sessions', S, 'ralph-state.json'))).toBe(false);

      // When OMC's signal expires, omc-top re-checks the disk and settles.
      const settled = await h.waitForText(/▸ ended\s+88727f43 no modes left/, 40_000);
      expect(settled).not.toMatch(/ended \d+s/);
      h.write('q');
      expect(await h.waitForExit()).toBe(0);
    },
  );

  it('p at 60 columns: the dialog and the "pause" countdown fit, and the loop keeps its state', async () => {
    p = project();
    h = new TerminalHarness({ cwd: p.dir, cols: 60, rows: 20 });
    await h.waitForText(/▸ enforced\s+88727f43/);
    h.write('p');
    // The whole dialog, not just its title: a frame can reach the pty in more than one read.
    const dialog = await h.waitForText(/Pause ralph \+ ultrawork[\s\S]*Nothing is removed[\s\S]*y: pause/, 20_000);
    expect(dialog).toContain('n/Esc: keep going');
    expect(h.screen().every((l) => l.length <= 60)).toBe(true);
    h.write('y');
    // The row's MODES cell says what is on disk, whichever omc-top paused: the loop, kept.
    await h.waitForText(/pause \d+s\s+88727f43 ralph 3\/10/);
    expect(h.screen().every((l) => l.length <= 60)).toBe(true);
    const state = JSON.parse(fs.readFileSync(path.join(p.root, 'state', 'sessions', S, 'ralph-state.json'), 'utf8'));
    expect(state.active).toBe(true);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
  });
});
