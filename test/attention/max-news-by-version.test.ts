/**
 * ralph at its max, as news, in the words of the OMC that judges the session, with that OMC's real Stop hook
 * moving the loop: 5.5.0's hook takes it to its max and then raises the max by 10 and goes on (news: "max
 * reached, OMC extends it (+10)", then "max extended by OMC"); 4.4.4's lets the agent stop there ("max
 * iterations reached"). The attention facts are diffed around each real hook run, as the monitor does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diffFacts, factsOf, type Transition } from '../../src/feeds/attention/engine.js';
import { attentionInput, AttentionMonitor } from '../../src/feeds/attention/monitor.js';
import { detectOmcInstall } from '../../src/store/omc-install.js';
import { OmcStore } from '../../src/store/store.js';
import { makeProject, waitFor, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { OMC444, OMC55 } from '../helpers/omc-packages.mjs';
import { hookDecision, spawnStopHook, type HookVersion } from '../helpers/stop-hook.js';

const SID = '7a7a7a7a-1111-4222-8333-444455556666';
let p: TempProject | null = null;
let home: string | null = null;
let store: OmcStore | null = null;
let monitor: AttentionMonitor | null = null;
afterEach(async () => {
  monitor?.dispose();
  monitor = null;
  await store?.close();
  store = null;
  p?.cleanup();
  if (home) fs.rmSync(home, { recursive: true, force: true });
  p = home = null;
});

const PKG: Record<HookVersion, string> = { '5.5.0': OMC55, '4.4.4': OMC444 };

/** A project whose session runs ralph at 99 of 100, judged by `version` (its plugin root, as the hook has it). */
function world(version: HookVersion) {
  p = makeProject({ prefix: 'omc-top-maxnews-' });
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-maxnews-home-'));
  const now = Date.now();
  const file = path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json');
  writeOmcJson(file, {
    active: true,
    iteration: 99,
    max_iterations: 100,
    started_at: new Date(now - 60_000).toISOString(),
    last_checked_at: new Date(now - 5_000).toISOString(),
    prompt: 'scratch task',
    session_id: SID,
  });
  const env = { HOME: home, CLAUDE_CONFIG_DIR: path.join(home, '.claude'), CLAUDE_PLUGIN_ROOT: PKG[version] };
  const omc = detectOmcInstall({ env, projectDir: p.dir, processes: false });
  store = new OmcStore({ root: p.root, projectDir: p.dir, omc, watch: 'none', claude: { live: false, env } });
  store.start();
  const s = store;
  const root = p.root;
  const h = home;
  let facts = factsOf(attentionInput(s));
  // The running monitor too (its incremental path, what the TUI, watch --json and serve read): the news it tells.
  const told: string[] = [];
  const mon = (monitor = new AttentionMonitor(s));
  mon.onTransitions((batch) => told.push(...batch.flatMap((t) => (t.news ? [`${t.kind}: ${t.news}`] : []))));
  return {
    told,
    ready: () => waitFor(() => mon.ready || null, { what: 'the first settled picture' }),
    file,
    rules: () => s.sessions.getSnapshot().sessions.find((v) => v.id === SID)?.verdict?.rules,
    /** One real Stop of the session: the hook's output line, and the news of what it changed on disk. */
    stop(): { hook: string; news: Transition[] } {
      const hook = spawnStopHook(version, { cwd: path.dirname(root), sessionId: SID, home: h, now: Date.now() });
      s.sessions.scan();
      const next = factsOf(attentionInput(s));
      const news = diffFacts(facts, next).filter((t) => t.news !== null);
      facts = next;
      return { hook, news };
    },
  };
}

const state = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

describe("ralph's max as news, by the book of the OMC judging the session", () => {
  it("5.5.0: reaching the max is 'OMC extends it', and the raise itself is news; the loop goes on", async () => {
    const w = world('5.5.0');
    await w.ready();
    expect(w.rules()).toBe('5.5.0');
    const first = w.stop();
    expect(hookDecision(first.hook)).toMatchObject({ decision: 'block', mode: 'ralph' });
    expect(state(w.file)).toMatchObject({ iteration: 100, max_iterations: 100, active: true });
    expect(first.news.map((t) => [t.kind, t.news])).toEqual([['iteration', 'max reached, OMC extends it (+10)']]);
    await waitFor(() => w.told.length >= 1 || null, { what: "the monitor's first news" });

    const second = w.stop();
    expect(second.hook).toContain('EXTENDED');
    expect(state(w.file)).toMatchObject({ iteration: 100, max_iterations: 110, active: true });
    expect(second.news.map((t) => [t.kind, t.news, t.fact.max])).toEqual([['max', 'max extended by OMC', 110]]);
    await waitFor(() => w.told.length >= 2 || null, { what: "the monitor's news" });
    expect(w.told).toEqual(['iteration: max reached, OMC extends it (+10)', 'max: max extended by OMC']);
  });

  it("4.4.4: reaching the max is 'max iterations reached' (its hook lets the agent stop there), no extension", async () => {
    const w = world('4.4.4');
    await w.ready();
    expect(w.rules()).toBe('4.4.4');
    const first = w.stop();
    expect(hookDecision(first.hook)).toMatchObject({ decision: 'block', mode: 'ralph' });
    expect(state(w.file)).toMatchObject({ iteration: 100, max_iterations: 100 });
    expect(first.news.map((t) => [t.kind, t.news])).toEqual([['iteration', 'max iterations reached']]);

    const second = w.stop();
    expect(hookDecision(second.hook).decision).toBe('stop');
    expect(state(w.file).max_iterations).toBe(100);
    expect(second.news).toEqual([]);
    await waitFor(() => w.told.length >= 1 || null, { what: "the monitor's news" });
    expect(w.told).toEqual(['iteration: max iterations reached']);
  });
});
