/**
 * A monitor's cancel with two OMC plugins enabled at once (5.5.0 named first, 4.4.4 beside it): Claude Code runs
 * both Stop hooks and a block from either holds the agent. The plan is made by both books, so the cancel's tracker
 * judges "did it take" by both too, and the dialog names both: after the cancel, "ended" only when neither real hook
 * would block the stop any more; "not taken" while 4.4.4's hook still enforces a file omc-top left.
 */
import fs from 'node:fs';
import path from 'node:path';
import { cancelDialog, carryOutCancel, planCancelFor } from '../../src/feeds/answers/cancel-plan.js';
import { detectOmcInstall } from '../../src/store/omc-install.js';
import type { OmcStore } from '../../src/store/store.js';
import { liveRalph, waitFor, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { hookDecision, spawnStopHook, type HookVersion } from '../helpers/stop-hook.js';
import { twoPlugins, type TwoPlugins } from '../helpers/two-plugins.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';

const S = '6a6a6a6a-3333-4333-8333-333333333333';
const OTHER = '7b7b7b7b-3333-4333-8333-333333333333';

interface Scene {
  p: TempProject;
  w: TwoPlugins;
  store: OmcStore;
  /** Moves the store's clock past the cancel's 30 s window. */
  later(ms: number): void;
  hook(v: HookVersion): ReturnType<typeof hookDecision>;
}

/** S with a ralph loop and a 4.x ultrawork carrying `ultrawork`'s fields; a started store over it. */
async function scene(
  p: TempProject,
  newStore: (o: ConstructorParameters<typeof OmcStore>[0]) => OmcStore,
  ultrawork: Record<string, unknown>,
): Promise<Scene> {
  const w = twoPlugins();
  onTestFinished(() => fs.rmSync(w.base, { recursive: true, force: true }));
  const dir = path.join(p.root, 'state', 'sessions', S);
  writeOmcJson(path.join(dir, 'ralph-state.json'), liveRalph({ sessionId: S, iteration: 2, max: 100 }));
  const now = Date.now();
  writeOmcJson(path.join(dir, 'ultrawork-state.json'), {
    active: true,
    started_at: new Date(now - 60_000).toISOString(),
    last_checked_at: new Date(now - 5_000).toISOString(),
    original_prompt: 'ultrawork the parser',
    session_id: S,
    reinforcement_count: 1,
    ...ultrawork,
  });
  let shift = 0;
  const store = newStore({
    root: p.root,
    projectDir: p.dir,
    stateDir: path.join(w.base, 'state'),
    claude: { env: w.env },
    home: w.home,
    clock: () => Date.now() + shift,
    omc: detectOmcInstall({ env: w.env, projectDir: p.dir, processes: false }),
  });
  store.start();
  await waitFor(() => store.sessions.getSnapshot().sessions.some((x) => x.id === S), { what: 'S read' });
  return {
    p,
    w,
    store,
    later: (ms) => void (shift += ms),
    hook: (v) => hookDecision(spawnStopHook(v, { cwd: p.dir, sessionId: S, home: w.home, now: Date.now() + shift })),
  };
}

/** The monitor's `c` on S, confirmed: the plan its dialog shows, and the tracker's entry once carried out. */
async function cancelS(s: Scene) {
  const planned = planCancelFor(s.store, { sessionId: S, mode: null, pauseOnly: false }, s.store.clock(), 'press c');
  if (!planned.ok) throw new Error(planned.message);
  const dialog = cancelDialog(s.store, planned.plan);
  const out = await carryOutCancel(s.store, planned.plan, { now: s.store.clock });
  if (out.kind !== 'done') throw new Error(out.kind);
  return { plan: planned.plan, dialog, entry: out.entry };
}

const JUDGED =
  "Judged with the Stop-hook rules of every enabled OMC plugin (Claude Code runs each one's Stop hook; a block from any holds the agent): OMC 5.5.0's (OMC 5.5.0 from plugin oh-my-claudecode@dev (enabled in user settings)), OMC 4.4.4's (OMC 4.4.4 from plugin oh-my-claudecode@omc (enabled in user settings)).";

describe("a monitor's cancel with two OMC plugins enabled: judged by both books", () => {
  it("4.4.4's hook still enforces a file omc-top leaves: not ended, then not taken, naming 4.4.4", async ({
    emptyProject,
    newStore,
  }) => {
    // A named workflow's state: omc-top never rewrites it; 4.4.4's hook reinforces it and never reads the signal.
    const s = await scene(emptyProject, newStore, { workflow: 'release' });
    const { plan, dialog, entry } = await cancelS(s);
    expect(plan.books).toEqual(['5.5.0', '4.4.4']);
    expect(dialog.lines.find((l) => l.startsWith('Judged with'))).toBe(JUDGED);
    // The ultrawork is left as it is, and said so once: not also "removed because OMC 4.x still enforces it".
    expect(plan.skipped.map((x) => x.rel)).toEqual([`state/sessions/${S}/ultrawork-state.json`]);
    expect(plan.warnings.filter((w) => w.includes('ultrawork'))).toEqual([
      `state/sessions/${S}/ultrawork-state.json is left as it is, and OMC 4.4's Stop hook, which runs for this session, never reads cancel signals: it keeps the agent working for ultrawork`,
    ]);
    // What Claude Code runs now: 5.5.0's hook lets the stop through, 4.4.4's blocks for the ultrawork.
    expect(s.hook('5.5.0').decision).toBe('stop');
    expect(s.hook('4.4.4')).toMatchObject({ decision: 'block', mode: 'ultrawork' });
    expect(entry.phase).toBe('waiting');
    expect(entry.text).toMatch(/^not ended yet: ultrawork is still enforced \(OMC 4\.4\.4's Stop hook: .+\)$/);

    // The window over: both real hooks again, and the tracker's final word agrees with them.
    s.later(30_001);
    expect(s.hook('4.4.4')).toMatchObject({ decision: 'block', mode: 'ultrawork' });
    s.store.cancels.evaluate();
    const e = s.store.cancels.get(S);
    expect(e).toMatchObject({ phase: 'not-taken', final: true });
    expect(e?.text).toMatch(/^cancel did not take: ultrawork is still enforced \(OMC 4\.4\.4's Stop hook: .+\)$/);
  });

  it('both hooks let the stop through after the cancel: ended, "the Stop hooks of OMC 5.5.0 and 4.4.4" named', async ({
    emptyProject,
    newStore,
  }) => {
    // 4.4.4's hook reads session_id (S); omc-top's owner rule reads _meta first: the plan ends it by 4.4.4's book.
    const s = await scene(emptyProject, newStore, { _meta: { sessionId: OTHER } });
    const { entry } = await cancelS(s);
    expect(s.hook('5.5.0').decision).toBe('stop');
    expect(s.hook('4.4.4').decision).toBe('stop');
    expect(entry.phase).toBe('ended');
    expect(entry.reason).toContain(
      'ended on disk (the Stop hooks of OMC 5.5.0 and 4.4.4, re-reading it, enforce none of these modes)',
    );
    s.later(30_001);
    expect(s.hook('5.5.0').decision).toBe('stop');
    expect(s.hook('4.4.4').decision).toBe('stop');
    s.store.cancels.evaluate();
    expect(s.store.cancels.get(S)).toMatchObject({ phase: 'unobserved', final: true });
    expect(s.store.cancels.get(S)?.reason).toContain(
      'ended on disk: the signal window is over, and the Stop hooks of OMC 5.5.0 and 4.4.4 (re-reading disk) no longer enforce any of these modes',
    );
  });
});
