/**
 * State files omc-top will not read by its own safety rules, which OMC's real 5.5.0 Stop hook reads and blocks on:
 * a ralph-state.json past omc-top's 4 MB cap (the hook readFileSyncs any size), one that is a symlink to a file out of
 * `.omc` (the hook follows it), and a session directory that is a symlink out of `.omc`. Each is `unreadable` with an
 * `unknown` verdict (row, --json, the attention item) and a cancel refuses in words, never "absent", "idle stop" or
 * "nothing to cancel"; omc-top still reads nothing past its cap or out of the root. A symlinked session directory that
 * stays inside `.omc` is read through the link, as the hook reads it: the loop it holds is enforced, as the hook says.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { liveRalph, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { hookDecision, spawnStopHook } from '../helpers/stop-hook.js';
import type { OmcStore } from '../../src/store/store.js';
import { buildJsonReport } from '../../src/feeds/json-report.js';
import { planCancel } from '../../src/store/cancel/plan.js';
import { unreadableCancelOf } from '../../src/store/cancel/unreadable.js';
import { rowText } from '../../src/panes/sessions/rows.js';

const S = '0b5e9c1e-1111-4222-8333-444455556666';
const FILE = `state/sessions/${S}/ralph-state.json`;

const view = (store: OmcStore) => store.sessions.getSnapshot().sessions.find((x) => x.id === S);

function json(store: OmcStore, root: string) {
  return JSON.parse(
    JSON.stringify(buildJsonReport({ root, rootRule: 't', notices: [], sessions: store.sessions.getSnapshot() })),
  ) as {
    sessions: { id: string; status: string; verdict: { decision: string; rule: string; detail: string } }[];
    problems: { path: string; message: string }[];
  };
}

const ralph = (p: TempProject, extra: Record<string, unknown> = {}) => ({
  ...liveRalph({ sessionId: S, iteration: 3, max: 100, projectPath: p.dir, prompt: 'scratch task' }),
  ...extra,
});

function hookOf(p: TempProject, tempDir: (prefix?: string) => string) {
  return hookDecision(
    spawnStopHook('5.5.0', { cwd: p.dir, sessionId: S, home: tempDir('omc-top-refused-home-'), now: Date.now() }),
  );
}

/** What every surface says of a session whose file omc-top refused by its own rule: unknown, the refusal named. */
function expectUnknown(p: TempProject, store: OmcStore, rel: string, why: RegExp) {
  const s = view(store)!;
  expect(s.status).toBe('unreadable');
  expect(s.verdict).toMatchObject({ decision: 'unknown', rule: 'omc-top-cannot-read' });
  expect(s.unreadable).toEqual([rel]);
  expect(rowText(s, Date.now(), 100, false).status.trim()).toBe('unreadable');
  const doc = json(store, p.root);
  const js = doc.sessions.find((x) => x.id === S)!;
  expect(js).toMatchObject({ status: 'unreadable', verdict: { decision: 'unknown', rule: 'omc-top-cannot-read' } });
  expect(js.verdict.detail).not.toMatch(/does not exist/);
  expect(doc.problems.find((x) => x.path === rel)?.message).toMatch(why);
  // c: refused, naming the file and why, not "nothing to cancel".
  const r = planCancel(p.root, { sessionId: S, mode: null, pauseOnly: false }, Date.now());
  expect(r).toMatchObject({ ok: false, code: 'unreadable' });
  expect((r as { message: string }).message).toMatch(new RegExp(`^omc-top cannot read ${rel} \\(`));
  expect(unreadableCancelOf(s)).toBe((r as { message: string }).message);
}

describe('a state file omc-top refuses by its own rule, which OMC 5.5.0’s Stop hook reads', () => {
  it('past the 4 MB cap: the hook blocks; omc-top says unknown, never idle', ({
    emptyProject: p,
    newStore,
    tempDir,
  }) => {
    writeOmcJson(path.join(p.root, FILE), ralph(p, { pad: 'x'.repeat(5_000_000) }));
    const store = newStore({ root: p.root, watch: 'none', projectDir: p.dir });
    store.start();
    expectUnknown(p, store, FILE, /over the 4\.0 MB limit; not read/);
    expect(hookOf(p, tempDir)).toMatchObject({ decision: 'block', mode: 'ralph' });
  });

  it('a symlink to a file out of .omc: the hook blocks; omc-top says unknown and reads nothing out of the root', ({
    emptyProject: p,
    newStore,
    tempDir,
  }) => {
    const outside = path.join(tempDir('omc-top-refused-out-'), 'ralph.json');
    writeOmcJson(outside, ralph(p));
    fs.mkdirSync(path.join(p.root, 'state', 'sessions', S), { recursive: true });
    fs.symlinkSync(outside, path.join(p.root, FILE));
    const store = newStore({ root: p.root, watch: 'none', projectDir: p.dir });
    store.start();
    expectUnknown(p, store, FILE, /symlink points outside the \.omc root/);
    expect(view(store)!.modes.map((m) => m.iteration ?? null)).not.toContain(3);
    expect(hookOf(p, tempDir)).toMatchObject({ decision: 'block', mode: 'ralph' });
  });
});

describe('a symlinked session directory (OMC’s listSessionIds skips it, its Stop hook reads through it)', () => {
  it('inside .omc: read through the link, enforced as the hook enforces it; no word of OMC skipping it', ({
    emptyProject: p,
    newStore,
    tempDir,
  }) => {
    const real = path.join(p.root, 'real', S);
    writeOmcJson(path.join(real, 'ralph-state.json'), ralph(p));
    fs.symlinkSync(`../../real/${S}`, path.join(p.root, 'state', 'sessions', S));
    const store = newStore({ root: p.root, watch: 'none', projectDir: p.dir });
    store.start();
    const s = view(store)!;
    expect(s.status).toBe('enforced');
    expect(s.verdict).toMatchObject({ decision: 'block', mode: 'ralph' });
    expect(s.modes[0]).toMatchObject({ mode: 'ralph', iteration: 3 });
    expect(JSON.stringify(store.sessions.getSnapshot().problems)).not.toMatch(/skips symlinked/);
    const hook = hookOf(p, tempDir);
    expect(hook).toMatchObject({ decision: 'block', mode: 'ralph' });
    // The hook counted an iteration in the file the link leads to: the one omc-top reads.
    expect(JSON.parse(fs.readFileSync(path.join(real, 'ralph-state.json'), 'utf8'))).toMatchObject({ iteration: 4 });
    store.sessions.scan();
    expect(view(store)!.modes[0]).toMatchObject({ iteration: 4 });
  });

  it('out of .omc: the hook blocks; omc-top says the directory is unreadable, unknown, and lists nothing in it', ({
    emptyProject: p,
    newStore,
    tempDir,
  }) => {
    const real = path.join(tempDir('omc-top-refused-dir-'), S);
    writeOmcJson(path.join(real, 'ralph-state.json'), ralph(p));
    fs.symlinkSync(real, path.join(p.root, 'state', 'sessions', S));
    const store = newStore({ root: p.root, watch: 'none', projectDir: p.dir });
    store.start();
    expectUnknown(p, store, `state/sessions/${S}`, /directory is a symlink to outside the \.omc root/);
    expect(hookOf(p, tempDir)).toMatchObject({ decision: 'block', mode: 'ralph' });
  });
});
