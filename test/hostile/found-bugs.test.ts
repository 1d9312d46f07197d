/**
 * Bugs the bad-input suite found, each pinned by the smallest test that
 * showed it (the corpus cases cover them too; these say what was wrong).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJsonText, readTextSync } from '../../src/io/safe-fs/index.js';
import { buildJsonReport } from '../../src/feeds/json-report.js';
import { SESSION, waitFor } from '../helpers/fixtures.js';
import { mountHostile, rescanDomains } from '../helpers/hostile-run.js';
import type { MountedApp } from '../helpers/mount-app.js';
import { terminalViolations } from '../helpers/hostile-bytes.js';
import { makeSandbox, NOW, type Sandbox } from '../helpers/hostile-sandbox.js';
import { OMC55 } from '../helpers/omc-packages.mjs';

let s: Sandbox | null = null;
let app: MountedApp | null = null;
afterEach(async () => {
  await app?.unmount();
  s?.cleanup();
  app = null;
  s = null;
});

describe('a symlink whose target path carries escape sequences', () => {
  it('is refused with a problem line that quotes the target by every byte, none of them raw', async () => {
    s = makeSandbox();
    // Directory names may hold any byte but "/" and NUL: this one sets the terminal title.
    const evil = path.join(s.outside, 'evil\u001b]0;PWNED\u0007dir');
    fs.mkdirSync(evil);
    fs.writeFileSync(path.join(evil, 'x.json'), '{}');
    const rel = `state/sessions/${SESSION.ralph}/ralph-state.json`;
    fs.rmSync(path.join(s.root, rel));
    fs.symlinkSync(path.join(evil, 'x.json'), path.join(s.root, rel));

    const r = readTextSync(s.root, rel);
    expect(r.ok).toBe(false);
    // The target as it is named (`evil\e]0;PWNED\x07dir`, not `evildir`, a directory that does not exist).
    expect(!r.ok && r.message).toMatch(
      /^symlink points outside the \.omc root \(to .*\/evil\\e\]0;PWNED\\x07dir\/x\.json\); not read$/,
    );

    app = await mountHostile({ root: s.root, clock: () => NOW });
    await app.step('!');
    await app.waitForText('symlink points outside the .omc root');
    for (const f of app.frames()) expect(terminalViolations(f)).toEqual([]);
    // The title sequence is shown as inert text, never sent as one.
    expect(app.frames().join('')).not.toContain('\u001b]0;PWNED');
  });
});

/**
 * No session from the directory outside is listed; a session known by its own path (a state file that names it) is
 * kept only as `unreadable`: OMC's hooks follow the link and may read it, omc-top does not (never "absent").
 */
function expectNothingFromOutside(store: NonNullable<typeof app>['store']): void {
  const sessions = store.sessions.getSnapshot().sessions;
  expect(sessions.map((x) => x.id)).toContain('legacy');
  expect(sessions.map((x) => x.id).filter((id) => id.startsWith('aaaaaaaa-outside'))).toEqual([]);
  for (const x of sessions) if (x.id !== 'legacy') expect(x.status).toBe('unreadable');
}

describe('a directory that is a symlink to outside the root', () => {
  it('is not listed: no session from outside appears, one problem line says why', async () => {
    s = makeSandbox();
    fs.rmSync(path.join(s.root, 'state/sessions'), { recursive: true });
    fs.symlinkSync(path.join(s.outside, 'sessions-dir'), path.join(s.root, 'state/sessions'));
    app = await mountHostile({ root: s.root, clock: () => NOW });
    expectNothingFromOutside(app.store);
    expect(app.store.problems.getSnapshot().filter((p) => p.path.startsWith('state/sessions'))).toEqual([
      {
        path: 'state/sessions',
        message: expect.stringMatching(
          /^directory is a symlink to outside the \.omc root \(.*\/outside\/sessions-dir\); not listed$/,
        ),
        severity: 'error',
      },
    ]);
    // The names inside the outside directory never reach the screen.
    expect(app.frames().join('')).not.toContain('aaaaaaaa-outside');
  });
});

describe('JSON cut mid-write', () => {
  it('is called truncated wherever the cut falls, not "invalid JSON"', () => {
    const ok = {
      ok: true as const,
      text: '',
      bytes: 0,
      mtimeMs: 0,
      ino: 0,
      invalidUtf8: false,
      bom: false,
      uid: 0,
      mode: 0o100600,
      nlink: 1,
    };
    const full = JSON.stringify({ active: true, iteration: 2, prompt: 'x', nested: { a: [1, 2] } }, null, 2);
    for (let cut = 1; cut < full.length - 1; cut++) {
      const text = full.slice(0, cut);
      const r = parseJsonText(text, { ...ok, text, bytes: cut });
      if (text.trim() === '') continue;
      expect(r.ok, text).toBe(false);
      expect(!r.ok && r.message, JSON.stringify(text)).toMatch(new RegExp(`^truncated JSON \\(${cut} bytes; `));
    }
    // A real mistake in the middle of a file is still "invalid".
    const typo = '{"active": tru, "x": 1}';
    const r = parseJsonText(typo, { ...ok, text: typo, bytes: typo.length });
    expect(!r.ok && r.message).toMatch(/^invalid JSON \(/);
  });

  it('names a symlink loop as such', () => {
    s = makeSandbox();
    fs.symlinkSync('loop.json', path.join(s.root, 'state', 'loop.json'));
    const r = readTextSync(s.root, 'state/loop.json');
    expect(!r.ok && r.message).toBe('symlink loop (the link leads back to itself); not read');
  });
});

describe('a state file with a byte-order mark', () => {
  it("is unreadable for OMC's own readers, so omc-top does not show it as a live mode", async () => {
    const dist = path.join(OMC55, 'dist');
    const { readModeState } = await import(pathToFileURL(path.join(dist, 'lib', 'mode-state-io.js')).href);
    const { isModeActive } = await import(pathToFileURL(path.join(dist, 'hooks', 'mode-registry', 'index.js')).href);
    s = makeSandbox();
    execFileSync('git', ['init', '-q', s.project]);
    const sid = 'bom-session';
    const rel = `state/sessions/${sid}/ralph-state.json`;
    const state = {
      active: true,
      iteration: 2,
      max_iterations: 10,
      session_id: sid,
      started_at: new Date(NOW).toISOString(),
    };
    fs.mkdirSync(path.dirname(path.join(s.root, rel)), { recursive: true });
    fs.writeFileSync(path.join(s.root, rel), JSON.stringify(state));
    expect([readModeState('ralph', s.project, sid) !== null, isModeActive('ralph', s.project, sid)]).toEqual([
      true,
      true,
    ]);
    fs.writeFileSync(path.join(s.root, rel), '\ufeff' + JSON.stringify(state));
    // OMC: no state, not active.
    expect([readModeState('ralph', s.project, sid), isModeActive('ralph', s.project, sid)]).toEqual([null, false]);

    app = await mountHostile({ root: s.root, clock: () => NOW });
    const row = app.store.sessions.getSnapshot().sessions.find((x) => x.id === sid);
    expect(row?.modes).toEqual([]);
    expect(app.store.problems.getSnapshot()).toContainEqual({
      path: rel,
      message: "starts with a byte-order mark: OMC's JSON.parse rejects it, so OMC ignores this file",
      severity: 'error',
    });
  });

  it("is a problem line for team files too (OMC's team readers JSON.parse the raw text as well)", async () => {
    s = makeSandbox();
    const rel = 'state/team/fix-ts-errors/tasks/task-2.json';
    app = await mountHostile({ root: s.root, clock: () => NOW });
    fs.writeFileSync(path.join(s.root, rel), '\ufeff' + fs.readFileSync(path.join(s.root, rel), 'utf8'));
    expect(rescanDomains(app.store)).toEqual([]);
    await waitFor(
      () => app?.store.problems.getSnapshot().find((p) => p.path === rel && /byte-order mark/.test(p.message)),
      { what: 'the BOM problem line' },
    );
  });
});

describe('legacy and ended-session files that are not plain files', () => {
  it('each get a problem line (they were skipped without a word)', async () => {
    s = makeSandbox();
    fs.rmSync(path.join(s.root, 'state/cancel-signal-state.json'));
    fs.symlinkSync(path.join(s.outside, 'secret-state.json'), path.join(s.root, 'state/cancel-signal-state.json'));
    fs.mkdirSync(path.join(s.root, 'ralph-state.json'));
    const ended = path.join(s.root, 'sessions', `${SESSION.finished}.json`);
    fs.rmSync(ended);
    fs.symlinkSync(`${SESSION.finished}.json`, ended);
    app = await mountHostile({ root: s.root, clock: () => NOW });
    const problems = app.store.problems.getSnapshot().map((p) => `${p.path}: ${p.message}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^state\/cancel-signal-state\.json: symlink points outside the \.omc root \(to .*secret-state\.json\); not read$/,
        ),
        'ralph-state.json: is a directory where a state file was expected',
        `sessions/${SESSION.finished}.json: symlink loop (the link leads back to itself); not read`,
      ]),
    );
  });
});

describe('a legacy bridge heartbeat that is a directory or a symlink out of the root', () => {
  it('gets a problem line instead of the worker silently leaving the board', async () => {
    s = makeSandbox();
    const dir = path.join(s.root, 'state/team-bridge/bridge-team');
    fs.rmSync(path.join(dir, 'worker-a.heartbeat.json'));
    fs.mkdirSync(path.join(dir, 'worker-a.heartbeat.json'));
    fs.symlinkSync(path.join(s.outside, 'secret-state.json'), path.join(dir, 'worker-b.heartbeat.json'));
    app = await mountHostile({ root: s.root, clock: () => NOW });
    const problems = app.store.problems.getSnapshot().map((p) => `${p.path}: ${p.message}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        'state/team-bridge/bridge-team/worker-a.heartbeat.json: is a directory where a heartbeat file was expected',
        expect.stringMatching(
          /^state\/team-bridge\/bridge-team\/worker-b\.heartbeat\.json: symlink points outside the \.omc root/,
        ),
      ]),
    );
    expect(app.frames().join('')).not.toContain('OUTSIDE-SECRET');
  });
});

describe('a directory swapped for a symlink while omc-top runs', () => {
  it('is refused at the next scan, not listed through a cached resolution', async () => {
    s = makeSandbox();
    app = await mountHostile({ root: s.root, clock: () => NOW });
    fs.rmSync(path.join(s.root, 'state/sessions'), { recursive: true });
    fs.symlinkSync(path.join(s.outside, 'sessions-dir'), path.join(s.root, 'state/sessions'));
    expect(rescanDomains(app.store)).toEqual([]);
    await waitFor(
      () => app?.store.problems.getSnapshot().some((p) => p.path === 'state/sessions' && /not listed/.test(p.message)),
      { what: 'the refusal' },
    );
    expect(app.store.problems.getSnapshot().map((p) => p.path)).not.toContain(
      'state/sessions/aaaaaaaa-outside-session',
    );
    expectNothingFromOutside(app.store);
  });
});

describe('file content quoted inside reasons and problem messages', () => {
  const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
  it('never carries a control character (V8 quotes the bad JSON; JSON.stringify leaves DEL and C1 raw)', async () => {
    s = makeSandbox();
    app = await mountHostile({ root: s.root, clock: () => NOW });
    const put = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(s!.root, rel)), { recursive: true });
      fs.writeFileSync(path.join(s!.root, rel), text);
    };
    // Invalid JSON whose offending token is an escape sequence / a C1 control.
    put('state/sessions/hx-a/ralph-state.json', '{"active": \u001b]0;PWNED\u0007 }');
    put('state/sessions/hx-b/ralph-state.json', '{"active": \u0085\u009b31m }');
    // Valid JSON whose values are quoted in a reason / a schema message.
    put(
      'state/sessions/hx-c/ralph-state.json',
      JSON.stringify({ active: '\u0085\u009d0;T\u009c', started_at: new Date(NOW).toISOString() }),
    );
    const task = 'state/team/fix-ts-errors/tasks/task-2.json';
    put(
      task,
      JSON.stringify({ ...JSON.parse(fs.readFileSync(path.join(s.root, task), 'utf8')), status: 'done\u0085\u009b2J' }),
    );
    expect(rescanDomains(app.store)).toEqual([]);
    await waitFor(() => app?.store.problems.getSnapshot().some((p) => p.path === task), { what: 'the task problem' });
    const problems = app.store.problems.getSnapshot();
    for (const rel of ['state/sessions/hx-a/ralph-state.json', 'state/sessions/hx-b/ralph-state.json', task]) {
      const p = problems.find((x) => x.path === rel);
      expect(p?.message, rel).toBeDefined();
      expect(p?.message, rel).not.toMatch(CONTROL);
    }
    const c = app.store.sessions.getSnapshot().sessions.find((x) => x.id === 'hx-c');
    expect(c?.modes[0]?.reason).toMatch(/^active is "/);
    expect(c?.modes[0]?.reason).not.toMatch(CONTROL);
    const team = app.store.teams.getSnapshot().teams[0];
    for (const t of team?.tasks ?? []) expect(t.problem ?? '').not.toMatch(CONTROL);
    await app.step('!');
    await app.waitForText('Problems with files');
    for (const f of app.frames()) expect(terminalViolations(f)).toEqual([]);
  });
});

describe('times from files beyond what a Date can hold', () => {
  it('do not crash the App or --json (1e308 is a finite number; new Date(1e308).toISOString() throws)', async () => {
    s = makeSandbox();
    const sid = 'hx-time';
    const put = (rel: string, v: unknown) => {
      fs.mkdirSync(path.dirname(path.join(s!.root, rel)), { recursive: true });
      fs.writeFileSync(path.join(s!.root, rel), JSON.stringify(v));
    };
    put(`state/sessions/${sid}/ralph-state.json`, {
      active: true,
      iteration: 1,
      max_iterations: 3,
      started_at: 1e308,
      last_checked_at: 8.7e15,
      updated_at: '+275760-09-13T00:00:00.001Z',
    });
    put(`state/sessions/${sid}/cancel-signal-state.json`, {
      active: true,
      requested_at: '+275760-09-13T00:00:00.000Z',
      mode: 'ralph',
    });
    const mem = JSON.parse(fs.readFileSync(path.join(s.root, 'project-memory.json'), 'utf8'));
    put('project-memory.json', {
      ...mem,
      lastScanned: 1e308,
      userDirectives: [{ ...mem.userDirectives[0], timestamp: 1e308 }, ...mem.userDirectives.slice(1)],
    });

    app = await mountHostile({ root: s.root, clock: () => NOW });
    await app.step('/', sid, '\r', '\r');
    await app.waitForText(`Session ${sid}`);
    await app.step('\u001b', '\u001b', 'm');
    // The newest directive is ranked first and selected: its details line says what its time is.
    await app.waitForText('at an impossible time');
    const doc = buildJsonReport({
      root: s.root,
      rootRule: 't',
      notices: [],
      sessions: app.store.sessions.getSnapshot(),
      extraProblems: app.store.problems.getSnapshot(),
      extra: app.store.reportExtras(),
    }) as {
      sessions: Array<{ id: string; started_at: string | null }>;
      project_memory: { last_scanned: string | null; directives: Array<{ added_at: string | null }> };
    };
    expect(doc.sessions.find((x) => x.id === sid)?.started_at).toBeNull();
    expect(doc.project_memory.last_scanned).toBeNull();
    expect(doc.project_memory.directives.some((d) => d.added_at === null)).toBe(true);
    expect(app.text()).not.toMatch(/ERROR|Invalid time value/);
  });
});
