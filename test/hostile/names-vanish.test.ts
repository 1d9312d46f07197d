/**
 * Class 8 of the second hardening round, the part that lives in the shared
 * cleaning: a `__proto__` key in a state file (JSON.parse makes it an own key)
 * vanished from the session detail view, because the cleaned copy assigned it
 * and so set the copy's prototype instead. It must be shown like any key, and
 * never change any object's prototype.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { runCancelCommand } from '../../src/commands/cancel.js';
import { LEGACY_ROW, idsOf, keyLabel, rowByKey, rowKey } from '../../src/panes/sessions/reducer.js';
import { rowText } from '../../src/panes/sessions/rows.js';
import { MAX_FILES_PER_SESSION } from '../../src/store/sessions/paths.js';
import { cleanDeep } from '../../src/io/sanitize.js';
import { OmcStore } from '../../src/store/store.js';
import { writeLiveRalph, writeOmcJson } from '../helpers/fixtures.js';

describe('a __proto__ key', () => {
  it('cleanDeep keeps it as an own key, and no prototype changes', () => {
    const v = JSON.parse('{"__proto__": {"polluted": "yes"}, "a": 1}') as Record<string, unknown>;
    const c = cleanDeep(v) as Record<string, unknown>;
    expect(Object.keys(c)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(c)).toBe(Object.prototype);
    expect((c as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("is listed in the session's mode fields (what the detail view shows)", async ({ emptyProject: p }) => {
    const sid = 'b0b0b0b0-0000-4000-8000-000000000001';
    const now = new Date().toISOString();
    writeLiveRalph(p, { sessionId: sid, iteration: 1, max: 5, startedAt: now, checkedAt: now });
    // An object literal cannot carry an own __proto__ key through JSON.stringify: add it as raw text.
    const file = path.join(p.root, 'state', 'sessions', sid, 'ralph-state.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('{', '{"__proto__": {"x": 1},'));
    const store = new OmcStore({ root: p.root, watch: 'none' });
    store.start();
    const mode = store.sessions.getSnapshot().sessions.find((s) => s.id === sid)?.modes[0];
    expect(Object.keys(mode?.fields ?? {})).toContain('__proto__');
    await store.close();
  });
});

describe('an autopilot state nested 100,000 deep', () => {
  it('a cancel says why in words (OMC could not hash it either), not "Maximum call stack size exceeded"', async ({
    emptyProject: p,
  }) => {
    const sid = 'deep0000-0000-4000-8000-000000000001';
    const now = new Date().toISOString();
    const file = path.join(p.root, 'state', 'sessions', sid, 'autopilot-state.json');
    writeOmcJson(file, {
      active: true,
      phase: 'execution',
      iteration: 1,
      max_iterations: 10,
      started_at: now,
      last_checked_at: now,
      session_id: sid,
      project_path: p.dir,
    });
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('{', `{"nested": ${deep},`));
    let out = '';
    const code = await runCancelCommand([sid, '--cwd', p.dir], {
      out: (t) => (out += t),
      err: (t) => (out += t),
      cwd: p.dir,
      now: Date.now,
    });
    expect(out).not.toMatch(/Maximum call stack/);
    expect(out).toMatch(/nested too deeply|nesting|too deep/);
    expect(code).not.toBe(0);
  });
});

describe('a session directory with 5,000 state files (class 6)', () => {
  it('reads OMC modes first and at most MAX_FILES_PER_SESSION files, with a problem line; a change re-derives a bounded session', async ({
    emptyProject: p,
  }) => {
    const sid = 'many0000-0000-4000-8000-000000000001';
    const dir = path.join(p.root, 'state', 'sessions', sid);
    fs.mkdirSync(dir, { recursive: true });
    const now = new Date().toISOString();
    const state = {
      active: true,
      iteration: 1,
      max_iterations: 5,
      started_at: now,
      last_checked_at: now,
      session_id: sid,
    };
    for (let i = 0; i < 5_000; i++) fs.writeFileSync(path.join(dir, `m${i}-state.json`), JSON.stringify(state));
    writeOmcJson(path.join(dir, 'ralph-state.json'), { ...state, iteration: 7 });
    const store = new OmcStore({ root: p.root, watch: 'none' });
    store.start();
    const s = store.sessions.getSnapshot().sessions.find((x) => x.id === sid);
    expect(s?.modes.length).toBeLessThanOrEqual(MAX_FILES_PER_SESSION);
    expect(s?.modes.find((m) => m.mode === 'ralph')?.iteration).toBe(7);
    expect(store.problems.getSnapshot().map((x) => `${x.path}: ${x.message}`)).toContain(
      `state/sessions/${sid}: more than ${MAX_FILES_PER_SESSION} state files in one session directory (OMC writes one per mode); the rest are not read`,
    );
    await store.close();
  });
});

describe('a wiki page whose file name is not UTF-8', () => {
  it('is a problem line naming it, not a page that silently vanishes', async ({ project: p }) => {
    const wiki = path.join(p.root, 'wiki');
    const good = fs.readdirSync(wiki).find((f) => f.endsWith('.md') && f !== 'index.md' && f !== 'log.md')!;
    const name = Buffer.concat([Buffer.from(`${wiki}/caf`), Buffer.from([0xe9]), Buffer.from('-notes.md')]);
    fs.writeFileSync(name, fs.readFileSync(path.join(wiki, good)));
    const store = new OmcStore({ root: p.root, watch: 'none' });
    store.start();
    await new Promise<void>((resolve) => {
      const done = () => !/reading/.test(JSON.stringify(store.status.getSnapshot()));
      if (done()) resolve();
      const off = store.status.subscribe(() => {
        if (done()) {
          off();
          resolve();
        }
      });
    });
    const lines = store.problems.getSnapshot().map((x) => `${x.path}: ${x.message}`);
    // Named by its bytes, as a session directory so named is (test/panes/wiki-not-utf8-name.test.tsx: the rest).
    expect(lines.some((l) => /^wiki\/caf\\xe9-notes\.md: file name is not valid UTF-8/.test(l))).toBe(true);
    await store.close();
  });
});

describe('a session directory named "legacy"', () => {
  /** Session-less ralph in state/, and a session directory that is itself named legacy (a valid OMC id). */
  function twoLegacies(root: string): { dirFile: string; stateFile: string } {
    const now = new Date().toISOString();
    const ralph = (sid: string | null) => ({
      active: true,
      iteration: 2,
      max_iterations: 10,
      started_at: now,
      last_checked_at: now,
      ...(sid ? { session_id: sid } : {}),
    });
    const dirFile = path.join(root, 'state', 'sessions', 'legacy', 'ralph-state.json');
    const stateFile = path.join(root, 'state', 'ralph-state.json');
    writeOmcJson(dirFile, ralph('legacy'));
    writeOmcJson(stateFile, ralph(null));
    return { dirFile, stateFile };
  }
  const cancel = (dir: string, ...argv: string[]) => {
    let out = '';
    return runCancelCommand([...argv, '--cwd', dir], {
      out: (t) => void (out += t),
      err: (t) => void (out += t),
      cwd: dir,
      now: Date.now,
    }).then((code) => ({ code, out }));
  };

  it('two rows with two identities: the list never selects or opens one for the other', async ({ emptyProject: p }) => {
    twoLegacies(p.root);
    const store = new OmcStore({ root: p.root, watch: 'none' });
    store.start();
    const rows = store.sessions.getSnapshot().sessions.filter((s) => s.id === 'legacy');
    expect(rows.map((s) => s.kind).sort()).toEqual(['legacy', 'session']);
    const keys = idsOf(rows);
    expect(new Set(keys).size).toBe(2);
    const dirRow = rows.find((s) => s.kind === 'session') as (typeof rows)[number];
    expect(rowByKey(rows, rowKey(dirRow))).toBe(dirRow);
    expect(rowByKey(rows, LEGACY_ROW)?.kind).toBe('legacy');
    await store.close();
  });

  it('the two rows read differently: the session-less one is "(legacy)", which no session id can be', async ({
    emptyProject: p,
  }) => {
    twoLegacies(p.root);
    const store = new OmcStore({ root: p.root, watch: 'none' });
    store.start();
    const rows = store.sessions.getSnapshot().sessions.filter((s) => s.id === 'legacy');
    const cells = rows.map((s) => rowText(s, Date.now(), 120, false).id.trim());
    expect(cells.sort()).toEqual(['(legacy)', 'legacy']);
    expect(keyLabel(LEGACY_ROW)).toBe('(legacy)');
    await store.close();
  });

  it('`cancel legacy` ends the session-less state; `cancel session:legacy` ends the directory', async ({
    emptyProject: p,
  }) => {
    const { dirFile, stateFile } = twoLegacies(p.root);
    const first = await cancel(p.dir, 'legacy');
    expect(first.code, first.out).toBe(0);
    expect(fs.existsSync(stateFile) && JSON.parse(fs.readFileSync(stateFile, 'utf8')).active === true).toBe(false);
    expect(JSON.parse(fs.readFileSync(dirFile, 'utf8')).active).toBe(true);
    const second = await cancel(p.dir, 'session:legacy');
    expect(second.code, second.out).toBe(0);
    expect(fs.existsSync(dirFile) && JSON.parse(fs.readFileSync(dirFile, 'utf8')).active === true).toBe(false);
  });

  it('`cancel session:ID` names exactly that directory: once it is gone, a longer id it prefixes is left alone', async ({
    emptyProject: p,
  }) => {
    // The fleet view and the page send `session:ID` for a row they saw; the directory may have gone since.
    const other = writeLiveRalph(p, { sessionId: 'abc12345-more' });
    const gone = await cancel(p.dir, 'session:abc12345');
    expect(gone.code, gone.out).toBe(4);
    expect(JSON.parse(fs.readFileSync(other, 'utf8')).active).toBe(true);
    // Typed by a person, the same words without `session:` are a prefix, as with git.
    const typed = await cancel(p.dir, 'abc12345');
    expect(typed.code, typed.out).toBe(0);
    expect(fs.existsSync(other) && JSON.parse(fs.readFileSync(other, 'utf8')).active === true).toBe(false);
  });
});
