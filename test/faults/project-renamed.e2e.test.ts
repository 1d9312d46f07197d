/**
 * The project directory renamed under the running monitor (`mv p9 p9-renamed`): OMC's hooks and Claude, whose
 * working directories moved with it, go on writing under the new name. A monitor that found its root from the
 * directory it runs in looks for it again there (the kernel's answer, which the rename moved) and follows, saying so
 * once; a root given with --root stays as given, and its waiting line says so.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/fixtures.js';
import { BIN } from '../helpers/pty.js';
import { liveRalph, makeProject, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { TerminalHarness } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

const SID = 'a9999999-1111-4222-8333-444444444444';
const stateFile = (root: string) => `${root}/state/sessions/${SID}/ralph-state.json`;

let h: TerminalHarness | null = null;
let p: TempProject | null = null;
let moved: string | null = null;
let child: ChildProcess | null = null;
const states: string[] = [];
afterEach(async () => {
  child?.kill('SIGKILL');
  child = null;
  // The monitor gone first: it writes in its state directory until it ends (removing that under it races its write).
  await h?.close();
  for (const s of states.splice(0)) fs.rmSync(s, { recursive: true, force: true });
  p?.cleanup();
  if (moved) fs.rmSync(moved, { recursive: true, force: true });
  h = p = moved = null;
});

function project(): TempProject {
  p = makeProject();
  writeOmcJson(stateFile(p.root), liveRalph({ sessionId: SID, iteration: 2 }));
  moved = `${p.dir}-renamed`;
  return p;
}

describe('the project directory renamed under the monitor', () => {
  it('started inside it: the monitor follows to the new path and shows the loop OMC writes there', async () => {
    const pr = project();
    const t = (h = new TerminalHarness({ cwd: pr.dir, cols: 200, rows: 30 }));
    await t.waitForText('ralph 2/10');
    await t.waitForText(/ live\s*$/m);
    fs.renameSync(pr.dir, moved!);
    writeOmcJson(stateFile(`${moved}/.omc`), liveRalph({ sessionId: SID, iteration: 3 }));
    await t.waitForText('ralph 3/10');
    await t.waitForText(`the project moved to ${moved}`);
    await t.waitForText(/ live\s*$/m);
    // Live on the new path: the next iteration is an event there.
    writeOmcJson(stateFile(`${moved}/.omc`), liveRalph({ sessionId: SID, iteration: 4 }));
    await t.waitForText('ralph 4/10');
    expect(t.text()).not.toMatch(/is gone \(moved away or removed\)/);
  });

  it('started inside it: the terminal title names the project as it is called now', async () => {
    const pr = project();
    const t = (h = new TerminalHarness({
      cwd: pr.dir,
      cols: 200,
      rows: 30,
      env: { TMUX: undefined, TMUX_PANE: undefined },
    }));
    // The titles the monitor set (OSC 2), in the order it set them.
    const titles = () => [...t.output.matchAll(/\x1b\]2;([^\x07]*)\x07/g)].map((m) => m[1] as string);
    const named = (name: string) => (x: string) => x === `omc-top ${name}` || x.startsWith(`omc-top ${name} · `);
    await waitFor(() => titles().some(named(path.basename(pr.dir))), {
      timeoutMs: 30_000,
      what: `the title naming ${path.basename(pr.dir)} (${JSON.stringify(titles())})`,
    });
    fs.renameSync(pr.dir, moved!);
    await t.waitForText(`the project moved to ${moved}`);
    await waitFor(() => named(path.basename(moved!))(titles().at(-1) ?? ''), {
      timeoutMs: 30_000,
      what: `the title naming ${path.basename(moved!)} (${JSON.stringify(titles())})`,
    });
  });

  it(
    'started inside it: the projects omc-top remembers follow the rename (the new path, not the dead one)',
    async () => {
      const pr = project();
      const state = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-known-'));
      states.push(state);
      const known = () => {
        try {
          const f = JSON.parse(fs.readFileSync(path.join(state, 'omc-top', 'known-projects.json'), 'utf8')) as {
            projects: Record<string, number>;
          };
          return Object.keys(f.projects);
        } catch {
          return [];
        }
      };
      const t = (h = new TerminalHarness({ cwd: pr.dir, cols: 200, rows: 30, env: { XDG_STATE_HOME: state } }));
      await t.waitForText('ralph 2/10');
      await waitFor(() => known().includes(pr.dir) || null, { timeoutMs: 30_000, what: 'the project remembered' });
      fs.renameSync(pr.dir, moved!);
      await t.waitForText(`the project moved to ${moved}`);
      // A fleet started later finds the project where it is now: the old path is dropped, not kept beside it.
      await waitFor(() => (known().includes(moved!) && !known().includes(pr.dir)) || null, {
        timeoutMs: 10_000,
        what: `the remembered projects naming ${moved} alone (${JSON.stringify(known())})`,
      });
      expect(known()).toEqual([moved]);
    },
    scaled(90_000),
  );

  it('a root given with --root stays as given: its waiting line says so, nothing is followed', async () => {
    const pr = project();
    const t = (h = new TerminalHarness({ cwd: pr.dir, args: ['--root', pr.root], cols: 200, rows: 30 }));
    await t.waitForText('ralph 2/10');
    await t.waitForText(/ live\s*$/m);
    fs.renameSync(pr.dir, moved!);
    writeOmcJson(stateFile(`${moved}/.omc`), liveRalph({ sessionId: SID, iteration: 3 }));
    await t.waitForText(/is gone \(moved away or removed\); waiting for it to come back \(given with --root\)/);
    // O looks again, and a root given by hand is not looked for elsewhere.
    t.write('O');
    await t.waitForText('no other .omc root under this project');
    expect(t.text()).not.toContain('ralph 3/10');
    expect(t.text()).not.toContain('the project moved');
  });

  it('watch --json started inside it follows too: a root line names the new path, and the loop there is reported', async () => {
    const pr = project();
    let out = '';
    let err = '';
    child = spawn(process.execPath, [BIN, 'watch', '--json', '--snapshot', '--rows'], {
      cwd: pr.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
    const lines = () =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    await waitFor(() => lines().some((l) => l.type === 'ready'), { timeoutMs: 30_000, what: `ready (${err})` });
    fs.renameSync(pr.dir, moved!);
    writeOmcJson(stateFile(`${moved}/.omc`), liveRalph({ sessionId: SID, iteration: 3 }));
    const movedLine = (l: Record<string, unknown>) =>
      l.type === 'root' && l.was !== null && (l.root as { path?: string }).path === `${moved}/.omc`;
    await waitFor(() => lines().some(movedLine), { timeoutMs: 30_000, what: `the root line (${out})` });
    expect(JSON.stringify(lines().find(movedLine))).toContain('the project moved to');
    // Named as it is called now, from the line that says it moved.
    expect(lines().find(movedLine)?.project).toBe(path.basename(moved!));
    // The loop's row from the new root, at the iteration OMC wrote there.
    await waitFor(
      () =>
        lines().some((l) => l.type === 'row' && JSON.stringify(l).includes(SID) && JSON.stringify(l).includes('3/10')),
      { timeoutMs: 30_000, what: `the row at 3/10 (${out.slice(-2000)})` },
    );
    // The new root's lines too (the old root's last lines, its rows leaving, keep the name they were sent under).
    const row3 = lines().find(
      (l) => l.type === 'row' && JSON.stringify(l).includes(SID) && JSON.stringify(l).includes('3/10'),
    );
    expect(row3?.project).toBe(path.basename(moved!));
  });
});
