/**
 * Runs one hostile case against the whole App and checks the five promises
 * of issue 7's bad-input suite:
 *
 *  1. omc-top keeps running: no domain throws, the App keeps rendering and
 *     answering keys through every pane and the views of the hostile item;
 *  2. a specific problem line names the file and the reason (or, when OMC's
 *     rules do not call it an error, the value is shown or coerced), and a
 *     file that was good before keeps showing its last good value;
 *  3. every healthy session of the base fixture is still shown as it was;
 *  4. nothing is written: not outside the root (the project directory and the
 *     sibling directory the symlinks point at), and not inside it either;
 *  5. no control byte from a file reaches the terminal: every frame Ink wrote
 *     holds only text, newlines and SGR styling, and no escape payload or
 *     text from outside the root is visible.
 *
 * The monitor starts on the healthy base fixture and the damage arrives while
 * it runs (what a poll tick or a watcher event then reads), so "keeps the last
 * good value" is tested for every file that existed before.
 */
import { expect } from 'vitest';
import type { Problem } from '../../src/store/types.js';
import type { OmcStore } from '../../src/store/store.js';
import { waitFor } from './fixtures.js';
import { mountApp, type MountedApp } from './mount-app.js';
import { terminalViolations } from './hostile-bytes.js';
import type { HostileCase, Visit } from './hostile-corpus.js';
import { baseFixture, fingerprint, fingerprintDiff, makeSandbox, NOW } from './hostile-sandbox.js';

/**
 * The hostile suite's App, on the one rig: 80x26 (every healthy row and
 * every problem fits on one screen), colours on (so frames carry the styling
 * a user's terminal gets, and any other byte in them is a violation).
 */
export async function mountHostile(opts: { root: string; clock: () => number }): Promise<MountedApp> {
  const app = await mountApp({ ...opts, columns: 80, rows: 26, color: true });
  await app.waitForText(/STATUS\s+SESSION/, 'the sessions list');
  return app;
}

/** What a poll tick does: every domain re-reads what moved on disk. Returns the errors domains threw (none expected). */
export function rescanDomains(store: OmcStore): Error[] {
  const errors: Error[] = [];
  for (const domain of [store.sessions, store.notepad, store.memory, store.wiki, store.teams, store.prd, store.runs]) {
    try {
      domain.scan();
    } catch (e) {
      errors.push(e as Error);
    }
  }
  return errors;
}

const ESC = '\u001b';
const ENTER = '\r';
const PAGE_DOWN = '\u001b[6~';
const SGR = /\u001b\[[0-9;:]*m/g;
const squash = (s: string) => s.replace(/\s+/g, '');

/** Words that say nothing about what is wrong: a problem line must say more than this. */
const GENERIC = /^(error|failed|invalid|unknown error|read failed|problem|bad file)\.?$/i;

/** Fast typing arrives as one chunk; the key decoder splits it into one event per key. */
async function type(app: MountedApp, text: string): Promise<void> {
  await app.step(text);
}

/** Opens each view a case names (and leaves it again), so its hostile text is drawn. */
async function walk(app: MountedApp, v: Visit): Promise<void> {
  switch (v.pane) {
    case 'sessions': {
      await app.step('s');
      await app.waitForText(/STATUS\s+SESSION/, 'the sessions list');
      const row = app.store.sessions.getSnapshot().sessions.find((x) => x.id === v.id);
      if (!row) return;
      await app.step('/');
      await type(app, v.id.slice(0, 13));
      await app.step(ENTER, ENTER);
      await app.waitForText(
        v.id === 'legacy' ? 'Legacy (session-less) state' : `Session ${v.id}`,
        `the detail view of ${v.id}`,
      );
      // Page through the whole detail view (a frame per page), so every field is seen on screen.
      for (let i = 0; i < 8; i++) await app.step(PAGE_DOWN);
      await app.step('G', ESC, ESC);
      return;
    }
    case 'teams': {
      await app.step('t');
      await app.waitForText(/TEAM\s+PHASE|No teams/, 'the teams list');
      await app.step('/');
      await type(app, v.team);
      await app.step(ENTER, ENTER);
      await app.step(']', 'j', ']', ESC, ESC);
      return;
    }
    case 'notepad':
      await app.step('n', '1', '2', ENTER, ESC, '3');
      return;
    case 'memory':
      await app.step('m', 'j', 'v', ESC);
      return;
    case 'wiki': {
      await app.step('w', 'g');
      if (v.file) {
        const pages = app.store.wiki.getSnapshot().pages;
        const i = pages.findIndex((p) => p.filename === v.file);
        for (let n = 0; n < i; n++) await app.step('j');
        if (i >= 0) await app.step(ENTER, 'G', ESC);
      }
      await app.step('L', ESC);
      return;
    }
  }
}

/** The problems overlay (!), paged until `want` shows (or to the end): what it listed, as one string. */
async function problemsOverlay(app: MountedApp, want: string | null): Promise<string> {
  await app.step('!');
  await app.waitForText('Problems with files', 'the problems overlay');
  let all = app.text();
  for (let i = 0; i < 40; i++) {
    if (want !== null && squash(all).includes(want)) break;
    const before = app.text();
    await app.step(' ');
    const after = app.text();
    if (after === before) break;
    all += '\n' + after;
  }
  await app.step(ESC);
  return all;
}

function problemList(store: OmcStore): string {
  return store.problems
    .getSnapshot()
    .map((p) => `  ${JSON.stringify(p.path)}: ${p.message}`)
    .join('\n');
}

export async function runCase(c: HostileCase): Promise<void> {
  const base = baseFixture();
  const s = makeSandbox();
  let app: MountedApp | null = null;
  try {
    app = await mountHostile({ root: s.root, clock: () => NOW });
    const { store } = app;
    c.apply(s);
    // An intercepted case deletes its victim itself (a vanishing file): its baseline is taken after the read.
    let before = c.intercept ? null : fingerprint(s.dir);

    // 1. The damage arrives while the monitor runs; no domain may throw.
    const undo = c.intercept?.(s);
    let errors: Error[];
    try {
      errors = rescanDomains(app.store);
    } finally {
      undo?.();
    }
    expect(
      errors.map((e) => e.stack),
      'a domain threw while reading the hostile tree',
    ).toEqual([]);
    before ??= fingerprint(s.dir);

    // 2. A specific problem line, or the value shown.
    let found: Problem | undefined;
    if (c.problem) {
      const want = c.problem;
      found = await waitFor(
        () => store.problems.getSnapshot().find((p) => p.path === want.path && want.message.test(p.message)),
        {
          timeoutMs: 3_000,
          what: `a problem line for ${JSON.stringify(want.path)} matching ${want.message}; problems now:\n${problemList(store)}`,
        },
      ).catch((e: Error) => {
        throw new Error(`${e.message}\nproblems:\n${problemList(store)}`);
      });
      expect(found.message).not.toMatch(GENERIC);
      expect(found.message.length).toBeGreaterThan(15);
    } else {
      // Let the domains' batched notifications land before looking.
      await new Promise((r) => setImmediate(r));
    }
    if (c.keeps) expect(c.keeps.check(store), c.keeps.what).toBe(true);

    // 3. Every healthy session is still there, as it was.
    if (!c.touches.includes('*')) {
      const now = store.sessions.getSnapshot().sessions;
      for (const h of base.healthy) {
        if (c.touches.includes(h.id)) continue;
        const row = now.find((x) => x.id === h.id);
        expect(row, `healthy session ${h.id} disappeared`).toBeDefined();
        expect({ id: row?.id, status: row?.status, modes: row?.modes.map((m) => m.mode).join(',') }).toEqual(h);
      }
    }

    // Walk: every pane, the hostile item's own views, the problems overlay.
    const shownText: string[] = [];
    const first = app.frames().length;
    for (const v of c.visit) await walk(app, v);
    for (const [key, marker] of [
      ['t', /TEAM\s+PHASE|No teams/],
      ['n', /1 Priority|notepad/i],
      ['m', /DIRECTIVE|project memory|project-memory/i],
      ['w', /SCORE|wiki/i],
      ['s', /STATUS\s+SESSION/],
    ] as const) {
      await app.step(key);
      await app.waitForText(marker, `pane ${key}`);
    }
    const overlay = await problemsOverlay(app, found ? squash(`${found.path}${found.message.slice(0, 60)}`) : null);
    for (const f of app.frames().slice(first)) shownText.push(f.replace(SGR, ''));

    if (found) {
      const line = squash(`${found.path}${found.message.slice(0, 60)}`);
      const shown = squash(overlay);
      const why = `the problems overlay shows ${found.path}: ${found.message}`;
      if (found.path.length <= 60 || shown.includes(line)) expect(shown, why).toContain(line);
      else {
        // A path longer than the overlay's line is shown shortened once in its middle (ui/format.ts wrapText): its
        // start, one `…`, its end, then the message.
        const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const p = squash(found.path);
        const m = squash(found.message.slice(0, 40));
        expect(shown, why).toMatch(
          new RegExp(`${esc(p.slice(0, 20))}[^…]{0,400}…[^…]{0,400}?${esc(p.slice(-6))}${esc(m)}`),
        );
      }
    }
    const seen = shownText.join('\n');
    for (const want of c.shown ?? []) {
      if (typeof want === 'string') expect(seen, `shown: ${want}`).toContain(want);
      else expect(seen, `shown: ${want}`).toMatch(want);
    }
    // The healthy rows are on screen, not just in the store.
    if (!c.touches.includes('*')) {
      const list = app.text();
      for (const h of base.healthy)
        if (!c.touches.includes(h.id)) expect(list, `row of ${h.id} on screen`).toContain(h.id.slice(0, 8));
    }

    // 5. Nothing but text, newlines and SGR ever reached the terminal.
    const frames = app.frames();
    for (let i = 0; i < frames.length; i++) {
      const bad = terminalViolations(frames[i] as string);
      expect(bad, `frame ${i} of ${frames.length} carries control bytes`).toEqual([]);
    }
    const everything = frames.map((f) => f.replace(SGR, '')).join('\n');
    for (const h of c.hidden ?? [])
      expect(everything, `hidden text ${JSON.stringify(h)} reached the screen`).not.toContain(h);

    // 4. Nothing written, inside the root or beside it.
    await app.unmount();
    app = null;
    const diff = fingerprintDiff(before, fingerprint(s.dir));
    expect(diff, 'files written while only reading').toEqual([]);
  } finally {
    if (app) await app.unmount().catch(() => undefined);
    s.cleanup();
  }
}
