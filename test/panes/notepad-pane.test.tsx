/**
 * The Notepad pane inside the real App with a real OmcStore on a copy of the
 * real-OMC fixture: keys go in through stdin (the app's own decoder and
 * router), assertions are on the rendered frame and on the bytes on disk as
 * OMC's own reader sees them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { footerHints } from '../../src/kit/bindings.js';
import { initNotepadPane } from '../../src/panes/notepad/reducer.js';
import { mountStore } from '../helpers/mount-app.js';
import stringWidth from 'string-width';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { notepadPane } from '../../src/panes/notepad/index.js';
import type { NotepadDomain } from '../../src/store/notepad/domain.js';
import { OmcStore } from '../../src/store/store.js';
import { UiStore } from '../../src/kit/ui-store.js';
import { READERS_CAPTURED_AT, makeProject, waitFor, type TempProject } from '../helpers/fixtures.js';
import { loadOmcNotepad, type OmcNotepad } from '../helpers/omc-notepad.js';
import { terminalViolations } from '../helpers/hostile-bytes.js';

const ESC = '\u001b';
const CTRL_S = '\u0013';
const NOW = READERS_CAPTURED_AT; // 2026-11-30 18:15 UTC: one Working entry is 9 days old

let omc: OmcNotepad;
beforeAll(async () => {
  omc = await loadOmcNotepad();
});

interface Mounted {
  p: TempProject;
  store: OmcStore;
  domain: NotepadDomain;
  ui: UiStore;
  frame(): string;
  keys(s: string): void;
  /** Presses keys one at a time, each followed by the frame it changed. */
  step(...keys: string[]): Promise<void>;
  /** Every frame drawn so far, raw. */
  frames(): readonly string[];
  see(text: string | RegExp, what?: string): Promise<string>;
  disk(): string;
  exited: boolean;
}

let mounted: Mounted | null = null;
let unmountApp: (() => void) | null = null;
afterEach(async () => {
  unmountApp?.();
  unmountApp = null;
  if (mounted) {
    await mounted.store.close();
    mounted.ui.dispose();
    mounted.p.cleanup();
  }
  mounted = null;
  delete process.env.EDITOR;
  delete process.env.VISUAL;
});

async function mount(
  opts: { readonly?: boolean; watch?: 'none' | 'auto'; columns?: number; rows?: number; notepad?: string } = {},
): Promise<Mounted> {
  const p = makeProject({ withFixture: true });
  if (opts.notepad !== undefined) fs.writeFileSync(path.join(p.root, 'notepad.md'), opts.notepad);
  const store = new OmcStore({
    root: p.root,
    watch: opts.watch ?? 'none',
    clock: () => NOW,
    readonly: opts.readonly ?? false,
  });
  const domain = store.notepad;
  store.start();
  const ui = new UiStore();
  const m: Mounted = {
    p,
    store,
    domain,
    ui,
    exited: false,
    frame: () => r.text(),
    keys: (s) => r.send(s),
    step: (...keys) => r.step(...keys),
    frames: () => r.frames(),
    see: (text, what) =>
      waitFor(
        () => {
          const f = r.text();
          return (typeof text === 'string' ? f.includes(text) : text.test(f)) ? f : null;
        },
        { what: what ?? `frame to show ${String(text)}`, timeoutMs: 5000 },
      ).catch((e: Error) => {
        throw new Error(`${e.message}\n--- last frame ---\n${r.text()}`);
      }),
    disk: () => fs.readFileSync(path.join(p.root, 'notepad.md'), 'utf8'),
  };
  const r = mountStore(store, { ui, columns: opts.columns ?? 100, rows: opts.rows ?? 24 });
  Object.defineProperty(m, 'exited', { get: r.exited });
  unmountApp = r.unmountOnly;
  await r.ready;
  mounted = m;
  return m;
}

async function openNotepad(m: Mounted): Promise<void> {
  m.keys('n');
  await m.see('2 Working 5 (1 due)');
}

const rows = (f: string) => f.split('\n');

describe('reading', () => {
  it('shows the three sections as tabs with sizes, Working entries newest first with age, the 9-day-old one due', async () => {
    const m = await mount();
    await openNotepad(m);
    const f = m.frame();
    expect(f).toContain('1 Priority 168/500');
    expect(f).toContain('3 MANUAL 2');
    expect(f).toMatch(/5 entries · 1 due for pruning/);
    const list = rows(f).filter((l) => /^[ ▸] 2026-11-/.test(l));
    expect(list.map((l) => l.slice(2, 18))).toEqual([
      '2026-11-30 18:10',
      '2026-11-30 18:00',
      '2026-11-29 16:15',
      '2026-11-27 18:15',
      '2026-11-21 18:15',
    ]);
    expect(list.map((l) => / due /.test(l))).toEqual([false, false, false, false, true]);
    expect(list[0]).toMatch(/18:10\s+5m autopilot execution/);
    expect(list[4]).toMatch(/9d due Investigated cart rounding/);
    // 4.x orphans are never a section or an entry, but are accounted for.
    expect(f).not.toMatch(/^\s*## 2026/m);
  });

  it('switches sections with 1-3 and the arrows; Tab / Shift-Tab switch panes as everywhere', async () => {
    const m = await mount();
    await openNotepad(m);
    m.keys('3');
    await m.see('MANUAL · 2 entries · never pruned');
    expect(m.frame()).toContain('Release owner: Dana.');
    expect(m.frame()).not.toMatch(/ due /);
    m.keys(`${ESC}[C`); // →
    await m.see('Priority Context · 168 chars · 500 recommended, 2,000 max');
    expect(m.frame()).toContain('Checkout totals must be integer cents.');
    m.keys(`${ESC}[D`); // ←
    await m.see('MANUAL · 2 entries');
    m.keys(`${ESC}[D`); // ←
    await m.see('Working Memory · 5 entries');
    m.keys('1');
    await m.see('Priority Context · 168 chars');
    m.keys('\t');
    await waitFor(() => m.ui.state.pane === 'memory' || null, { what: 'Tab opens the next pane' });
    m.keys(`${ESC}[Z`);
    await waitFor(() => m.ui.state.pane === 'notepad' || null, { what: 'Shift-Tab goes back' });
  });

  it('filters entries with /, every word must match; Esc clears', async () => {
    const m = await mount();
    await openNotepad(m);
    m.keys('/flaky threads');
    await m.see('1 of 5 match');
    expect(rows(m.frame()).filter((l) => /^[ ▸] 2026-11-/.test(l))).toHaveLength(1);
    expect(m.exited).toBe(false); // typing into the filter is text, not hotkeys
    m.keys('\r');
    m.keys(ESC);
    await waitFor(() => !m.frame().includes('match'), { what: 'the filter to clear' });
    expect(rows(m.frame()).filter((l) => /^[ ▸] 2026-11-/.test(l))).toHaveLength(5);
  });

  it('shows what OMC writes while the pane is open', async () => {
    const m = await mount({ watch: 'auto' });
    await openNotepad(m);
    await waitFor(() => m.store.status.getSnapshot().watchMode === 'events', { what: 'watcher' });
    omc.addWorkingMemoryEntry(m.p.dir, 'written by OMC just now');
    await m.see('written by OMC just now');
    await m.see('2 Working 6 (1 due)');
  });
});

describe('editing', () => {
  it('adds a multi-line entry typed as one burst: q types, Enter is a newline, Ctrl-S saves what OMC then reads', async () => {
    const m = await mount();
    await openNotepad(m);
    m.keys('a');
    await m.see('New Working Memory entry');
    m.keys('quick fix: cents\rsecond line q\r\r  indented');
    await m.see('  indented');
    expect(m.exited).toBe(false);
    expect(m.frame()).toContain('42/4,000');
    m.keys(CTRL_S);
    await m.see('added Working Memory entry 2026-11-30 18:15');
    expect(m.disk()).toContain('### 2026-11-30 18:15\nquick fix: cents\nsecond line q\n\n  indented\n');
    expect(omc.getWorkingMemory(m.p.dir)).toMatch(
      /### 2026-11-30 18:15\nquick fix: cents\nsecond line q\n\n {2}indented$/,
    );
    // The saved entry is selected (by identity, once read back).
    await waitFor(
      () =>
        /2026-11-30 18:15\s+\d+s quick fix: cents/.test(rows(m.frame()).find((l) => l.startsWith('▸')) ?? '') || null,
      { what: 'the new entry selected' },
    );
  });

  it('inserts a bracketed paste as text, newlines included', async () => {
    const m = await mount();
    await openNotepad(m);
    m.keys('3a');
    await m.see('New MANUAL entry');
    m.keys(`${ESC}[200~pasted one\r\npasted two\x13 no save${ESC}[201~`);
    await m.see('pasted two no save');
    expect(m.frame()).toContain('pasted one');
    m.keys(CTRL_S);
    await m.see('added MANUAL entry');
    expect(omc.getManualSection(m.p.dir)).toMatch(/### 2026-11-30 18:15\npasted one\npasted two no save$/);
  });

  it('Ctrl-U takes back a long pasted line at once, Ctrl-W a word; what is saved is what is left', async () => {
    const m = await mount();
    await openNotepad(m);
    m.keys('3a');
    await m.see('New MANUAL entry');
    m.keys('kept line\r');
    m.keys(`${ESC}[200~${'y'.repeat(5_000)}${ESC}[201~`);
    await m.see('5,010/');
    m.keys('\u0015'); // Ctrl-U
    await m.see('10/');
    m.keys('mistyped words');
    await m.see('mistyped words');
    m.keys('\u0017'); // Ctrl-W
    await m.see('mistyped ');
    m.keys('\u0017');
    m.keys('right');
    await m.see('kept line\nright');
    m.keys(CTRL_S);
    await m.see('added MANUAL entry');
    expect(omc.getManualSection(m.p.dir)).toMatch(/### 2026-11-30 18:15\nkept line\nright$/);
  });

  it('edits the selected entry in place, keeping its stamp; OMC reads the new text', async () => {
    const m = await mount();
    await openNotepad(m);
    m.keys('j'); // 2026-11-30 18:00
    m.keys('i');
    await m.see('Working Memory entry 2026-11-30 18:00');
    m.keys(`${ESC}[F`); // End of the (single) line
    m.keys(' All 5 fixed.');
    m.keys(CTRL_S);
    await m.see('saved Working Memory entry 2026-11-30 18:00');
    expect(omc.getWorkingMemory(m.p.dir)).toContain(
      '### 2026-11-30 18:00\nralph iteration 2: 3 of 5 TS errors fixed (Button props, CartSummary, client generics). Remaining: checkout.ts narrowing, main.tsx non-null. All 5 fixed.\n### 2026-11-30 18:10',
    );
  });

  it('Esc on a dirty draft asks first; n keeps editing, y discards and writes nothing', async () => {
    const m = await mount();
    await openNotepad(m);
    const before = m.disk();
    m.keys('a');
    await m.see('New Working Memory entry');
    m.keys('draft');
    m.keys(ESC);
    await m.see('Discard your draft?');
    expect(m.frame()).toContain('5 characters typed in this new Working Memory entry will be lost.');
    m.keys('n');
    await m.see('New Working Memory entry');
    expect(m.frame()).toContain('draft');
    m.keys(ESC);
    await m.see('Discard your draft?');
    m.keys('y');
    await m.see('Working Memory · 5 entries');
    expect(m.disk()).toBe(before);
  });

  it('refuses over-limit text with the limit named, writes nothing and keeps the draft', async () => {
    const m = await mount();
    await openNotepad(m);
    const before = m.disk();
    m.keys('a');
    await m.see('New Working Memory entry');
    m.keys(`${ESC}[200~${'x'.repeat(4001)}${ESC}[201~`);
    await m.see('4,001/4,000');
    m.keys(CTRL_S);
    await m.see('limited to 4,000 characters by OMC; this one has 4,001');
    expect(m.frame()).toContain('New Working Memory entry');
    expect(m.disk()).toBe(before);
  });

  it('deletes an entry after confirmation', async () => {
    const m = await mount();
    await openNotepad(m);
    m.keys('G'); // oldest: 2026-11-21 18:15
    m.keys('d');
    await m.see('Delete this Working Memory entry?');
    expect(m.frame()).toContain('Investigated cart rounding');
    m.keys('y');
    // Which one went, by its words too (a busy minute's entries share a stamp).
    await m.see('deleted Working Memory entry 2026-11-21 18:15: "Investigated cart rounding');
    expect(omc.getWorkingMemory(m.p.dir)).not.toContain('Investigated cart rounding');
    expect(omc.getWorkingMemory(m.p.dir)?.match(/^### /gm)).toHaveLength(4);
    // The 4.x orphan copies of it are OMC's leftovers and stay untouched.
    expect(m.disk()).toContain('## 2026-11-21 18:15\nInvestigated cart rounding');
  });

  it('prune lists exactly the entries that would go, asks, then removes only those', async () => {
    const m = await mount();
    await openNotepad(m);
    m.keys('p');
    await m.see('Prune 1 Working Memory entry older than 7 days?');
    const f = m.frame();
    expect(f).toContain('2026-11-21 18:15');
    for (const kept of ['2026-11-27 18:15', '2026-11-29 16:15', '2026-11-30 18:00', '2026-11-30 18:10'])
      expect(f).not.toContain(kept);
    expect(f).toContain('4 newer entries stay');
    m.keys('y');
    await m.see('pruned 1 Working Memory entry, 4 kept');
    const working = omc.getWorkingMemory(m.p.dir) ?? '';
    expect(working.match(/^### (.*)$/gm)).toEqual([
      '### 2026-11-27 18:15',
      '### 2026-11-29 16:15',
      '### 2026-11-30 18:00',
      '### 2026-11-30 18:10',
    ]);
  });

  it('replaces the Priority text and warns past the 500 recommended', async () => {
    const m = await mount();
    await openNotepad(m);
    m.keys('1');
    await m.see('Priority Context · 168 chars');
    m.keys('i');
    await m.see('✎ Priority Context');
    m.keys(`${ESC}[200~ ${'more context '.repeat(30)}${ESC}[201~`);
    m.keys(CTRL_S);
    await m.see(/saved Priority Context in notepad\.md\. Note: Priority Context is 5\d\d characters, over the 500/);
    expect(omc.getPriorityContext(m.p.dir)).toMatch(
      /^Checkout totals must be integer cents\..*more context more context$/s,
    );
  });
});

describe('the editor edits the text on disk, not the cleaned copy it shows', () => {
  const HEAD =
    '# Notepad\n<!-- Auto-managed by OMC. Manual edits preserved in MANUAL section. -->\n\n' +
    '## Priority Context\n<!-- ALWAYS loaded. Keep under 500 chars. Critical discoveries only. -->\n';
  const notepad = (priority: string, working: string) =>
    `${HEAD}${priority}\n\n## Working Memory\n<!-- Session notes. Auto-pruned after 7 days. -->\n` +
    `${working}\n\n## MANUAL\n<!-- User content. Never auto-pruned. -->\n`;
  const END = `${ESC}[F`;
  const HOME = `${ESC}[H`;
  const RIGHT = `${ESC}[C`;

  it('a tab in Priority Context survives an edit of another character: only that character changes on disk', async () => {
    const before = notepad('Run:\tmake test', '### 2026-11-30 06:00\nstep1\tdone');
    const m = await mount({ notepad: before });
    m.keys('n');
    await m.see('Working Memory · 1 entry');
    m.keys('1');
    await m.see('Priority Context ·');
    m.keys('i');
    await m.see('✎ Priority Context');
    m.keys(END);
    m.keys('!');
    await m.see('make test!');
    m.keys(CTRL_S);
    await m.see('saved Priority Context');
    expect(m.disk()).toBe(before.replace('Run:\tmake test', 'Run:\tmake test!'));
    expect(omc.getPriorityContext(m.p.dir)).toBe('Run:\tmake test!');
  });

  it('a tab in a Working Memory entry survives too, and the save adds no line', async () => {
    const before = notepad('Run:\tmake test', '### 2026-11-30 06:00\nstep1\tdone');
    const m = await mount({ notepad: before });
    m.keys('n');
    await m.see('Working Memory · 1 entry');
    m.keys('i');
    await m.see('Working Memory entry 2026-11-30 06:00');
    m.keys(END);
    m.keys('!');
    await m.see('done!');
    m.keys(CTRL_S);
    await m.see('saved Working Memory entry 2026-11-30 06:00');
    expect(m.disk()).toBe(before.replace('step1\tdone', 'step1\tdone!'));
  });

  it('escape sequences, a bidi override and a C1 CSI are never sent to the terminal, and are written back as they were', async () => {
    const hostile = '\u001b[31mred\u001b[0m \u001b]0;pwn\u0007 title \u202ertl \u009bcx end';
    const before = notepad(hostile, '### 2026-11-30 06:00\nstep1');
    const m = await mount({ notepad: before });
    m.keys('n');
    await m.see('Working Memory · 1 entry');
    m.keys('1');
    await m.see('Priority Context ·');
    const opened = m.frames().length;
    m.keys('i');
    await m.see('✎ Priority Context');
    // Each character is shown by a visible stand-in, wherever the cursor is: never a bare "[31m" or nothing.
    const shown = '␛[31mred␛[0m ␛]0;pwn␇ title <U+202E>rtl <U+009B>cx end';
    expect(m.frame()).toContain(shown);
    await m.step(HOME);
    for (let i = 0; i < Array.from(hostile).length; i++) {
      await m.step(RIGHT);
      expect(m.frame()).toContain(shown);
    }
    m.keys(END);
    m.keys('!');
    await m.see('cx end!');
    for (const f of m.frames().slice(opened)) expect(terminalViolations(f)).toEqual([]);
    m.keys(CTRL_S);
    await m.see('saved Priority Context');
    expect(m.disk()).toBe(before.replace(hostile, `${hostile}!`));
  });

  it('an HTML comment line in an entry is shown, opened in the editor and written back; OMC reads what it read', async () => {
    const KEEP = '<!-- keep: ask Dana for the sandbox key -->';
    const before = notepad('Cents only.', `### 2026-11-30 06:00\nBlocked on e2e.\n${KEEP}\nsecond line`);
    const m = await mount({ notepad: before });
    m.keys('n');
    await m.see('Working Memory · 1 entry');
    await m.see(KEEP);
    // The size is what OMC reads ("Blocked on e2e.\n\nsecond line"), in the read view and in the editor alike.
    expect(m.frame()).toContain('28/4,000 chars');
    m.keys('i');
    await m.see('Working Memory entry 2026-11-30 06:00');
    expect(m.frame()).toContain(KEEP);
    expect(m.frame()).toContain('28/4,000');
    m.keys('!');
    await m.see('second line!');
    m.keys(CTRL_S);
    await m.see('saved Working Memory entry 2026-11-30 06:00');
    expect(m.disk()).toBe(before.replace('second line', 'second line!'));
    expect(omc.getWorkingMemory(m.p.dir)).toBe('### 2026-11-30 06:00\nBlocked on e2e.\n\nsecond line!');
  });

  it('an HTML comment line under the Priority text is shown and kept by a Priority save', async () => {
    const NOTE = '<!-- user note: sandbox key rotates monthly -->';
    const before = notepad(`Cents only.\n${NOTE}\nShip 0.5.`, '### 2026-11-30 06:00\nstep1');
    const m = await mount({ notepad: before });
    m.keys('n');
    await m.see('Working Memory · 1 entry');
    m.keys('1');
    await m.see(NOTE);
    m.keys('i');
    await m.see('✎ Priority Context');
    m.keys('!');
    await m.see('Ship 0.5.!');
    m.keys(CTRL_S);
    await m.see('saved Priority Context');
    expect(m.disk()).toBe(before.replace('Ship 0.5.', 'Ship 0.5.!'));
  });
});

describe('on top of OMC: merge or refuse', () => {
  it('merges when OMC appended meanwhile: both the edit and the new entry are on disk', async () => {
    const m = await mount();
    await openNotepad(m);
    m.keys('G');
    m.keys('i');
    await m.see('Working Memory entry 2026-11-21 18:15');
    omc.addWorkingMemoryEntry(m.p.dir, 'OMC note while you typed');
    m.keys(`${ESC}[F (still true)`);
    m.keys(CTRL_S);
    await m.see('(merged with changes');
    const working = omc.getWorkingMemory(m.p.dir) ?? '';
    expect(working).toContain('src/api/checkout.ts. (still true)');
    expect(working).toContain('OMC note while you typed');
  });

  it('refuses when the same entry changed on disk, keeps the draft, shows the disk text; Ctrl-S again replaces it', async () => {
    const m = await mount();
    await openNotepad(m);
    m.keys('i');
    await m.see('Working Memory entry 2026-11-30 18:10');
    fs.writeFileSync(
      path.join(m.p.root, 'notepad.md'),
      m.disk().replace('autopilot execution: 4/9 tasks done.', 'autopilot execution: 5/9 tasks done.'),
    );
    m.keys(`${ESC}[F MY EDIT`);
    m.keys(CTRL_S);
    await m.see('Changed on disk:');
    expect(m.frame()).toMatch(/On disk now: autopilot execution: 5\/9/);
    const draft = (m.ui.state.panes.notepad as { editor: { buf: { text: string } } | null }).editor?.buf.text;
    expect(draft).toMatch(/e2e step\. MY EDIT$/);
    expect(m.frame()).toMatch(/MY\s+EDIT/);
    expect(m.disk()).toContain('5/9 tasks done. Blocked');
    expect(m.disk()).not.toContain('MY EDIT');
    m.keys(CTRL_S);
    await m.see('saved Working Memory entry 2026-11-30 18:10');
    expect(omc.getWorkingMemory(m.p.dir)).toContain(
      'autopilot execution: 4/9 tasks done. Blocked on payment sandbox credentials for the e2e step. MY EDIT',
    );
    expect(m.disk()).not.toContain('5/9');
  });
});

describe('a refused save shows the text on disk now', () => {
  /** The entry being edited changed on disk to ten lines meanwhile; the user's Ctrl-S is refused. */
  async function refusedAt(rows: number): Promise<Mounted> {
    const m = await mount({ rows });
    await openNotepad(m);
    m.keys('i');
    await m.see('Working Memory entry 2026-11-30 18:10');
    const lines = Array.from({ length: 9 }, (_, i) => `disk line ${i + 2}`);
    fs.writeFileSync(
      path.join(m.p.root, 'notepad.md'),
      m.disk().replace('autopilot execution: 4/9 tasks done.', ['autopilot execution: 5/9', ...lines].join('\n')),
    );
    m.keys(`${ESC}[F MY EDIT`);
    m.keys(CTRL_S);
    await m.see('Changed on disk:');
    return m;
  }

  it('line for line, all of it when the screen has room, with the draft and the keys line still shown', async () => {
    const m = await refusedAt(40);
    const f = m.frame();
    expect(f).toMatch(/On disk now: autopilot execution: 5\/9$/m);
    for (let i = 2; i <= 9; i++) expect(f).toMatch(new RegExp(`^  disk line ${i}$`, 'm'));
    expect(f).toMatch(/^ {2}disk line 10 Blocked on payment sandbox credentials for the e2e step\.$/m);
    expect(f).not.toMatch(/more lines?$/m);
    expect(f).toMatch(/MY\s+EDIT/);
    expect(f).toContain('Ctrl-S save · Esc cancel');
  });

  it('cut on a short screen, saying how many lines are not shown; the draft and the keys line stay', async () => {
    const m = await refusedAt(16);
    const f = m.frame();
    const shown = f.split('\n').filter((l) => /^ {2}disk line \d+/.test(l)).length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(9);
    expect(f).toMatch(new RegExp(`^  … ${9 - shown} more lines$`, 'm'));
    expect(f).toMatch(/MY\s+EDIT/);
    expect(f).toContain('Ctrl-S save · Esc cancel');
    expect(f.split('\n').length).toBeLessThanOrEqual(15);
  });
});

describe('--readonly', () => {
  it('makes every edit key a no-op with a message', async () => {
    const m = await mount({ readonly: true });
    await openNotepad(m);
    const before = m.disk();
    for (const k of ['a', 'A', 'i', 'e', 'd', 'p']) {
      m.ui.clearFlash();
      m.keys(k);
      await m.see('--readonly:', `message after ${k}`);
      expect(m.frame()).not.toContain('✎');
      // No editor and no confirmation were opened.
      expect((m.ui.state.panes.notepad as { editor: unknown }).editor).toBeNull();
      expect(m.ui.state.overlay).toBeNull();
    }
    m.keys('1');
    await m.see('Priority Context · 168 chars');
    m.ui.clearFlash();
    m.keys('i');
    await m.see('--readonly:');
    expect(m.disk()).toBe(before);
  });
});

describe('$EDITOR', () => {
  it('e saves what the editor wrote when it exits 0, like git commit', async () => {
    const m = await mount();
    process.env.EDITOR = `sh -c 'printf "%s\\n\\n" "rewritten in the editor" > "$1"' editor`;
    await openNotepad(m);
    m.keys('3e');
    await m.see('saved MANUAL entry 2026-11-28 18:15');
    expect(omc.getManualSection(m.p.dir)).toContain('### 2026-11-28 18:15\nrewritten in the editor');
  });

  it('a failing editor saves nothing and says so', async () => {
    const m = await mount();
    process.env.EDITOR = 'false';
    await openNotepad(m);
    const before = m.disk();
    m.keys('e');
    await m.see('false exited with status 1: nothing was saved');
    expect(m.disk()).toBe(before);
  });

  it('an editor the shell cannot find is said to be not found, not as status 127', async () => {
    const m = await mount();
    process.env.EDITOR = '/nonexistent/ed';
    await openNotepad(m);
    const before = m.disk();
    m.keys('e');
    await m.see('/nonexistent/ed was not found (the shell could not find the command; set $EDITOR or $VISUAL)');
    expect(m.disk()).toBe(before);
  });

  it('a draft back from the editor and refused counts what changed in the discard dialog, not the whole entry', async () => {
    const m = await mount();
    // The editor adds a comment: refused (OMC would not see it), so the text waits in the in-app editor.
    process.env.EDITOR = `sh -c 'printf "<!-- new -->\\n" >> "$1"' editor`;
    await openNotepad(m);
    const before = m.disk();
    m.keys('3e');
    await m.see('has an HTML comment marker');
    await m.see('MANUAL entry 2026-11-28 18:15');
    m.keys(ESC);
    await m.see('Discard your draft?');
    expect(m.frame()).toContain('Your changes to this MANUAL entry (13 characters added) will be lost.');
    m.keys('y');
    await m.see('MANUAL · 2 entries');
    m.keys('i');
    await m.see('✎ MANUAL entry');
    m.keys(`${ESC}[D\u007f`); // Left, Backspace: one character removed
    m.keys(ESC);
    await m.see('Discard your draft?');
    expect(m.frame()).toContain('Your changes to this MANUAL entry (1 character removed) will be lost.');
    expect(m.disk()).toBe(before);
  });

  it('Ctrl-O takes the in-app draft to the editor and back', async () => {
    const m = await mount();
    process.env.EDITOR = `sh -c 'printf "%s more\\n" "$(cat "$1")" > "$1"' editor`;
    await openNotepad(m);
    m.keys('a');
    await m.see('New Working Memory entry');
    m.keys('typed here\x0f');
    await m.see('typed here more');
    expect(m.frame()).toContain('New Working Memory entry');
  });
});

describe('layout', () => {
  // The whole app at the terminal size (the rig's in-memory terminal): 60 columns, and 80x24.
  for (const [w, h] of [
    [60, 20],
    [80, 24],
  ] as const) {
    it(`fits ${w} columns and ${h} rows in every mode`, async () => {
      const m = await mount({ columns: w, rows: h });
      const fits = (what: string) => {
        const lines = rows(m.frame());
        expect(lines.length, what).toBeLessThanOrEqual(h);
        for (const l of lines) expect(stringWidth(l), `${what}: ${l}`).toBeLessThanOrEqual(w);
      };
      m.keys('n');
      await m.see(/Working Memory · 5 entries/);
      fits('Working Memory');
      m.keys('1');
      await m.see(/Priority Context ·/);
      fits('Priority Context');
      m.keys('3');
      await m.see(/MANUAL · 2 entries/);
      fits('MANUAL');
      m.keys('2');
      await m.see(/Working Memory · 5 entries/);
      m.keys('\r');
      await m.see(/Esc back/);
      fits('the full view of an entry');
    });
  }

  it('offers Ctrl-S save in the footer hints while editing', () => {
    const editing = { ...initNotepadPane(), editor: {} as never };
    const hints = footerHints(notepadPane.bindings, editing, false);
    expect(hints[0]).toEqual(['Ctrl-S', 'save']);
    expect(notepadPane.typing?.active(editing)).toBe(true);
  });
});
