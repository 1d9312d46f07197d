/**
 * The plan quota the monitor's header shows (OMC's HUD usage cache: `5h 100% until 13:11 · wk 83% ↻2d23h`) reads
 * the same on every surface that carries the project's summary, from one module's words
 * (store/cost/quota-words.ts): the header, `--json`'s `quota`, `watch --json`'s `quota` line, serve's stream and the
 * fleet's header. Before, it was on the header alone. `watch --json` says it again when the fact changes, never for a
 * countdown going down.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { singleSource } from '../../src/commands/serve/source.js';
import { EMPTY_FLEET } from '../../src/fleet/model.js';
import { headerText } from '../../src/panes/fleet/layout.js';
import { quotaLine } from '../../src/store/cost/quota-words.js';
import type { QuotaSnapshot } from '../../src/store/cost/quota-domain.js';
import { parseUsageCache } from '../../src/store/cost/quota.js';
import { waitFor } from '../helpers/fixtures.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { BIN } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const iso = (ms: number) => new Date(ms).toISOString();

/** OMC's HUD cache as its usage-api.js writes it (test/fixtures/omc-5.5-cost/usage-cache/02-success's shape). */
function usageCache(at: number, five: [number, number], week: [number, number]) {
  return {
    timestamp: at,
    data: {
      fiveHourPercent: five[0],
      fiveHourResetsAt: iso(five[1]),
      weeklyPercent: week[0],
      weeklyResetsAt: iso(week[1]),
    },
    error: false,
    source: 'anthropic',
    lastSuccessAt: at,
  };
}

/** A Claude config dir with the cache, and the environment that reads it (nothing of the user's). */
function machine(dir: string) {
  const home = path.join(dir, 'home');
  const cfg = path.join(home, '.claude');
  const file = path.join(cfg, 'plugins', 'oh-my-claudecode', '.usage-cache-anthropic.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_CONFIG_DIR: cfg,
    XDG_STATE_HOME: path.join(dir, 'xdg-state'),
    XDG_CONFIG_HOME: path.join(dir, 'xdg-config'),
    CLAUDE_PLUGIN_ROOT: '',
    NO_COLOR: '1',
  };
  // Written whole, then renamed in: the watch never reads half a file.
  const write = (v: unknown) => {
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(v));
    fs.renameSync(`${file}.tmp`, file);
  };
  return { env, cfg, write };
}

describe('the plan quota on every surface', () => {
  it('the header, --json, serve and the fleet header say `5h 100% until HH:MM · wk 83% ↻2d23h`', async ({
    emptyProject: p,
    tempDir,
    newStore,
    mount,
  }) => {
    const m = machine(tempDir('omc-top-quota-'));
    const now = Date.now();
    const reset = now + 40 * 60_000;
    m.write(usageCache(now, [100, reset], [83, now + 3 * 86_400_000]));
    const words = `5h 100% until ${hhmm(reset)} · wk 83% ↻2d23h`;
    // The narrow header's words (no countdown below a limit): what a reader shows later.
    const short = `5h 100% until ${hhmm(reset)} · wk 83%`;

    // The monitor's header (the model).
    const store = newStore({ root: p.root, projectDir: p.dir, watch: 'none', claude: { live: false, env: m.env } });
    store.start();
    const a = mount(store, { columns: 160, rows: 30 });
    await a.ready;
    await a.waitForText(words);
    expect(a.lines()[0]).toContain(words);

    // serve's stream: the root's quota.
    const source = singleSource(store, 'proj', m.env);
    onTestFinished(() => source.close());
    expect(source.picture(Date.now()).roots[0]?.quota).toEqual({ text: words, short, limited_until: iso(reset) });

    // The fleet's header: this machine's quota, in the same words and place (last).
    const fleet = { ...EMPTY_FLEET, roots: 1, ready: true, quota: store.quota.getSnapshot() };
    expect(headerText(fleet, 0, 0, Date.now()).endsWith(`  ${words}`)).toBe(true);

    // --json of the bundle: a top-level `quota`.
    const r = spawnSync(process.execPath, [BIN, '--json', '--root', p.root], {
      cwd: p.dir,
      env: m.env,
      encoding: 'utf8',
      timeout: scaled(60_000),
    });
    expect(r.status, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { quota: unknown }).quota).toEqual({
      text: words,
      short,
      limited_until: iso(reset),
    });
  });

  it('watch --json writes a quota line when the figures change, none when only a countdown goes down', async ({
    emptyProject: p,
    tempDir,
  }) => {
    const m = machine(tempDir('omc-top-quota-watch-'));
    const start = Date.now();
    // The 5-hour countdown reads ↻10m until `turn`, then ↻9m: a change of words with no change of the fact.
    const turn = start + scaled(5_000);
    const five: [number, number] = [50, turn + 10 * 60_000];
    const week: [number, number] = [61, start + 3 * 86_400_000];
    m.write(usageCache(start, five, week));
    const c = spawn(process.execPath, [BIN, 'watch', '--json', '--snapshot', '--root', p.root], {
      cwd: p.dir,
      env: m.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolve) => c.once('exit', resolve));
    onTestFinished(async () => {
      if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      await exited;
    });
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const lines = () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { type: string; quota?: { text: string; limited_until: string | null } });
    const quotaTexts = () => lines().flatMap((l) => (l.type === 'quota' ? [l.quota?.text] : []));
    await waitFor(() => lines().some((l) => l.type === 'ready'), { timeoutMs: 30_000, what: 'watch ready' });
    // With --snapshot, before `ready`: the header's words at start.
    const first = lines().findIndex((l) => l.type === 'quota');
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(lines().findIndex((l) => l.type === 'ready'));
    expect(quotaTexts()).toEqual(['5h 50% ↻10m · wk 61% ↻2d23h']);

    // The countdown turns over (a change of words only), then OMC's HUD writes a new weekly figure.
    await waitFor(() => Date.now() > turn + 1_000, { timeoutMs: 30_000, what: 'the countdown turning over' });
    m.write(usageCache(Date.now(), five, [62, week[1]]));
    await waitFor(() => quotaTexts().length > 1, { timeoutMs: 20_000, what: 'a quota line for the new figure' });
    // One line, for the new figure (its countdown as it reads now); none for the countdown's minute.
    expect(quotaTexts()).toEqual(['5h 50% ↻10m · wk 61% ↻2d23h', '5h 50% ↻9m · wk 62% ↻2d23h']);
  });

  it("a HUD refresh with the same figures, and the clock's passing, are the same fact; a reset passing is not", () => {
    const at = Date.parse('2026-12-01T12:00:00Z');
    const snap = (cache: unknown, pollMs = 90_000): QuotaSnapshot => {
      const parsed = parseUsageCache('plugins/oh-my-claudecode/.usage-cache-anthropic.json', cache);
      if (!parsed.ok) throw new Error(parsed.problem);
      return { version: 1, configDir: '/c', cache: parsed.value, cacheProblem: null, pollMs, daemon: null };
    };
    const reset = at + 10 * 60_000;
    const a = quotaLine(snap(usageCache(at, [100, reset], [83, at + 3 * 86_400_000])), at + 1_000);
    // Written again 60 s later by the HUD (a new fetch, the same figures), read 3 minutes on.
    const b = quotaLine(snap(usageCache(at + 60_000, [100, reset], [83, at + 3 * 86_400_000])), at + 3 * 60_000);
    expect(a?.text).not.toBe(b?.text);
    expect(b?.key).toBe(a?.key);
    expect(a?.limitedUntilMs).toBe(reset);
    // The limit is over: the same file, read after the reset, is another fact (no percentage, no limit).
    const after = quotaLine(snap(usageCache(at + 60_000, [100, reset], [83, at + 3 * 86_400_000])), reset + 1_000);
    expect(after?.key).not.toBe(a?.key);
    expect(after?.text).toBe(`5h ? (reset ${hhmm(reset)}) · wk 83% ↻2d23h · 9m old`);
    expect(after?.limitedUntilMs).toBeNull();
  });
});
