/**
 * The serve page's Pause and Cancel plan as the TUI's `p` / `c` do (feeds/answers/cancel-plan.ts): a pause of a loop
 * whose OMC never reads cancel signals (4.4.4's wired Stop hook) is refused with the reason and writes nothing,
 * where the page used to write the signal and say "paused" while the real 4.4.4 hook kept blocking; under 5.5.0 the
 * plan carries the dialog's rule-book line. The real Stop hooks say what each version does with the signal.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Actions } from '../../src/commands/serve/actions.js';
import { singleSource } from '../../src/commands/serve/source.js';
import { makeOmcInstall } from '../../src/store/omc-install.js';
import { OmcStore } from '../../src/store/store.js';
import { liveRalph, makeProject, waitFor, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { hookDecision, spawnStopHook, type HookVersion } from '../helpers/stop-hook.js';

const S = '0b5e9c1e-2222-4222-8333-444455556666';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function page(rules: HookVersion) {
  const p: TempProject = makeProject({ prefix: 'omc-top-serve-pause-' });
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-serve-pause-home-'));
  cleanups.push(
    () => p.cleanup(),
    () => fs.rmSync(home, { recursive: true, force: true }),
  );
  writeOmcJson(
    path.join(p.root, 'state', 'sessions', S, 'ralph-state.json'),
    liveRalph({ sessionId: S, iteration: 3, max: 100 }),
  );
  const store = new OmcStore({ root: p.root, watch: 'poll', omc: makeOmcInstall(rules, '--omc-version') });
  store.start();
  const source = singleSource(store, 'proj', { HOME: home });
  cleanups.push(() => source.close());
  await waitFor(() => store.sessions.getSnapshot().sessions.some((s) => s.id === S), { what: 'the session read' });
  const actions = new Actions(source, false);
  const rootId = source.roots()[0]!.id;
  const signal = path.join(p.root, 'state', 'sessions', S, 'cancel-signal-state.json');
  const hook = () => hookDecision(spawnStopHook(rules, { cwd: p.dir, sessionId: S, home, now: Date.now() }));
  return { actions, rootId, signal, hook };
}

describe('serve: Pause and Cancel judged by the OMC that runs the hooks', () => {
  it('4.4.4: Pause is refused with the reason, nothing is written, and the real hook still blocks', async () => {
    const { actions, rootId, signal, hook } = await page('4.4.4');
    const r = actions.plan({ root: rootId, session: S, pause: true });
    expect(r.status).toBe(409);
    expect(String(r.body.error)).toBe(
      "OMC 4.4.4 runs this session's hooks (--omc-version); its Stop hook never reads cancel signals, so a pause would pause nothing; use Cancel to end the loop (its files are removed). Nothing was written.",
    );
    expect(fs.existsSync(signal)).toBe(false);
    expect(hook()).toMatchObject({ decision: 'block', mode: 'ralph' });
    // Cancel is still offered, judged with 4.4.4's rules, as the TUI's dialog says.
    const c = actions.plan({ root: rootId, session: S });
    expect(c.status).toBe(200);
    expect(c.body.lines).toContain("Judged with OMC 4.4.4's Stop-hook rules (OMC 4.4.4 from --omc-version).");
  });

  it('5.5.0: Pause is planned with the TUI dialog’s lines, and the signal it writes lets the real hook stop', async () => {
    const { actions, rootId, signal, hook } = await page('5.5.0');
    expect(hook()).toMatchObject({ decision: 'block', mode: 'ralph' });
    const r = actions.plan({ root: rootId, session: S, pause: true });
    expect(r.status).toBe(200);
    expect(r.body.lines).toContain("Judged with OMC 5.5.0's Stop-hook rules (OMC 5.5.0 from --omc-version).");
    const done = await actions.confirm({ plan: r.body.plan });
    expect(done.body.ok).toBe(true);
    expect(fs.existsSync(signal)).toBe(true);
    expect(hook()).toMatchObject({ decision: 'stop' });
  });
});
