/**
 * Class 8 of the second hardening round, the part that lives in the shared
 * cleaning: a `__proto__` key in a state file (JSON.parse makes it an own key)
 * vanished from the session detail view, because the cleaned copy assigned it
 * and so set the copy's prototype instead. It must be shown like any key, and
 * never change any object's prototype.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCancelCommand } from '../../src/commands/cancel.js';
import { addStandardDomains } from '../../src/store/domains.js';
import { cleanDeep } from '../../src/store/sanitize.js';
import { OmcStore } from '../../src/store/store.js';
import { makeProject, writeOmcJson, type TempProject } from '../helpers/fixtures.js';

let p: TempProject | null = null;
afterEach(() => {
  p?.cleanup();
  p = null;
});

describe('a __proto__ key', () => {
  it('cleanDeep keeps it as an own key, and no prototype changes', () => {
    const v = JSON.parse('{"__proto__": {"polluted": "yes"}, "a": 1}') as Record<string, unknown>;
    const c = cleanDeep(v) as Record<string, unknown>;
    expect(Object.keys(c)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(c)).toBe(Object.prototype);
    expect((c as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("is listed in the session's mode fields (what the detail view shows)", async () => {
    p = makeProject();
    const sid = 'b0b0b0b0-0000-4000-8000-000000000001';
    const now = new Date().toISOString();
    writeOmcJson(path.join(p.root, 'state', 'sessions', sid, 'ralph-state.json'), {
      active: true,
      iteration: 1,
      max_iterations: 5,
      started_at: now,
      last_checked_at: now,
      session_id: sid,
    });
    // An object literal cannot carry an own __proto__ key through JSON.stringify: add it as raw text.
    const file = path.join(p.root, 'state', 'sessions', sid, 'ralph-state.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('{', '{"__proto__": {"x": 1},'));
    const store = new OmcStore({ root: p.root, watch: 'none' });
    addStandardDomains(store);
    store.start();
    const mode = store.sessions.getSnapshot().sessions.find((s) => s.id === sid)?.modes[0];
    expect(Object.keys(mode?.fields ?? {})).toContain('__proto__');
    await store.close();
  });
});

describe('an autopilot state nested 100,000 deep', () => {
  it('a cancel says why in words (OMC could not hash it either), not "Maximum call stack size exceeded"', async () => {
    p = makeProject();
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
