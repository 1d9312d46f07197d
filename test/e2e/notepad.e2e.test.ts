/**
 * The Notepad pane in a real pseudo-terminal running the shipped bundle:
 * a multi-line entry typed as one fast burst (how a paste arrives when the
 * terminal has no bracketed paste), a bracketed paste, $EDITOR through
 * suspend/resume, and the exact bytes that land in notepad.md.
 *
 * Burst rule: inside the editor Enter (\r) always inserts a newline and only
 * Ctrl-S saves, so an unbracketed paste lands exactly as typed, line breaks
 * included, and nothing in it can save, cancel or quit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_TREE, makeProject, type TempProject } from '../helpers/fixtures.js';
import { loadOmcNotepad, type OmcNotepad } from '../helpers/omc-notepad.js';
import { TerminalHarness } from '../helpers/pty.js';
import { KEY } from '../helpers/keys.js';

const FIXTURE_TEXT = fs.readFileSync(path.join(FIXTURE_TREE, 'notepad.md'), 'utf8');
const CTRL_S = '\u0013';
const WORKING_END = 'for the e2e step.\n\n\n## 2026-11-21 18:15';
const MANUAL_END = 'not in this repo.\n\n\n## 2026-11-10 18:15';

let omc: OmcNotepad;
beforeAll(async () => {
  omc = await loadOmcNotepad();
});

let h: TerminalHarness | null = null;
let p: TempProject | null = null;
afterEach(() => {
  h?.dispose();
  p?.cleanup();
  h = null;
  p = null;
});

const disk = () => fs.readFileSync(path.join(p!.root, 'notepad.md'), 'utf8');
/** The stamp omc-top gave the newest entry (taken from disk; the minute depends on when the test ran). */
const lastStamp = (text: string) =>
  [...text.matchAll(/^### (\d{4}-\d{2}-\d{2} \d{2}:\d{2})$/gm)]
    .map((m) => m[1])
    .sort()
    .at(-1) as string;

async function openNotepad(env: Record<string, string> = {}): Promise<TerminalHarness> {
  p = makeProject({ withFixture: true });
  h = new TerminalHarness({ cwd: p.dir, cols: 80, rows: 24, env });
  await h.waitForText('ralph 3/10');
  h.write('n');
  // The due count is the entries older than 7 days now: the fixture's dates age with the wall clock.
  await h.waitForText(/2 Working 5 \([1-5] due\)/);
  return h;
}

describe('Notepad in a real terminal', () => {
  it("takes a multi-line entry sent as one fast burst and writes exactly OMC's bytes", async () => {
    const t = await openNotepad();
    t.write('a');
    await t.waitForText('New Working Memory entry');
    // One write = one burst, like an unbracketed paste: CRs between lines, a q and an n inside.
    const typed = 'Burst line one\rline two with q and n\r\r  third after a blank line';
    t.write(typed);
    await t.waitForText('third after a blank line');
    expect(t.text()).toContain('line two with q and n');
    t.write(CTRL_S);
    await t.waitForText('added Working Memory entry');
    const text = disk();
    const stamp = lastStamp(text);
    const body = 'Burst line one\nline two with q and n\n\n  third after a blank line';
    expect(text).toBe(
      FIXTURE_TEXT.replace(WORKING_END, `for the e2e step.\n### ${stamp}\n${body}\n\n\n## 2026-11-21 18:15`),
    );
    expect(omc.getWorkingMemory(p!.dir)?.endsWith(`### ${stamp}\n${body}`)).toBe(true);
    expect(fs.existsSync(path.join(p!.root, 'notepad.md.lock'))).toBe(false);
    // Out of the editor, q quits again and the terminal comes back.
    t.write('q');
    expect(await t.waitForExit()).toBe(0);
  });

  it('inserts a bracketed paste as text (its newlines are not Enter) and saves it to MANUAL', async () => {
    const t = await openNotepad();
    t.write('3');
    await t.waitForText('MANUAL · 2 entries');
    t.write('a');
    await t.waitForText('New MANUAL entry');
    t.write('\u001b[200~pasted A\r\npasted B\u001b[201~');
    await t.waitForText('pasted B');
    t.write(CTRL_S);
    await t.waitForText('added MANUAL entry');
    const text = disk();
    expect(text).toBe(
      FIXTURE_TEXT.replace(
        MANUAL_END,
        `not in this repo.\n### ${lastStamp(text)}\npasted A\npasted B\n\n\n## 2026-11-10 18:15`,
      ),
    );
  });

  it('hands an entry to $EDITOR and comes back to the full-screen UI with it saved', async () => {
    const editor = `sh -c 'printf "%s\\nedited outside\\n" "$(cat "$1")" > "$1"' editor`;
    const t = await openNotepad({ EDITOR: editor });
    t.write('e');
    await t.waitForText('saved Working Memory entry 2026-11-30 18:10');
    expect(t.altScreen).toBe(true);
    expect(omc.getWorkingMemory(p!.dir)).toContain(
      '### 2026-11-30 18:10\nautopilot execution: 4/9 tasks done. Blocked on payment sandbox credentials for the e2e step.\nedited outside',
    );
    // Keys work again after the resume.
    t.write('3');
    await t.waitForText('MANUAL · 2 entries');
  });

  it('$EDITOR with TMPDIR a file: names TMPDIR, the path escaped, and why; nothing is written', async () => {
    // A file where the temp directory should be, its name holding a tab (shown escaped, never raw).
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-tmpdir-'));
    const file = path.join(scratch, 'not\ta-dir');
    fs.writeFileSync(file, '');
    try {
      p = makeProject({ withFixture: true });
      h = new TerminalHarness({ cwd: p.dir, cols: 160, rows: 24, env: { TMPDIR: file, EDITOR: 'true' } });
      await h.waitForText('ralph 3/10');
      h.write('n');
      await h.waitForText(/2 Working 5/);
      h.write('e');
      const screen = await h.waitForText('$EDITOR: no scratch file');
      expect(screen).toContain(
        `$EDITOR: no scratch file: TMPDIR ${scratch}/not\\ta-dir is not a directory (ENOTDIR); point TMPDIR at a writable directory`,
      );
      expect(screen).not.toContain('mkdtemp');
      expect(disk()).toBe(FIXTURE_TEXT);
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('asks before discarding a draft and fits a 60-column pane', async () => {
    const t = await openNotepad();
    t.resize(60, 20);
    // The age, then "due" once the entry is older than 7 days (the fixture's stamps age with the wall clock).
    await t.waitForText(/11-30 18:10\s+\S+(\s+due)? autopilot/);
    expect(t.screen().every((l) => l.length <= 60)).toBe(true);
    t.write('a');
    await t.waitForText('New Working Memory entry');
    t.write('throwaway');
    t.write(KEY.esc);
    await t.waitForText('Discard your draft?');
    t.write('y');
    await t.waitForText('Working Memory · 5 entries');
    expect(disk()).toBe(FIXTURE_TEXT);
  });
});
