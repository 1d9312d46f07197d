/**
 * The plan quota and the wait daemon from OMC 5.5.0's own files (issue 26): every cache and state file
 * here was written by OMC's real writers (test/fixtures/omc-5.5-cost, PROVENANCE.txt there); what
 * omc-top concludes is checked against what OMC's own HUD concluded from the same file.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planLimit, rateLimitFor } from '../../../src/store/cost/loops.js';
import { QuotaDomain } from '../../../src/store/cost/quota-domain.js';
import { judgeUsage, parseUsageCache, sourceFor, waitDaemonDir } from '../../../src/store/cost/quota.js';
import { quotaHeaderText } from '../../../src/store/cost/quota-words.js';
import type { ProcessView } from '../../../src/store/claude/model.js';
import { DEAD_PID } from '../../helpers/claude-files.js';
import { REPO } from '../../helpers/fixtures.js';

const FIX = path.resolve(__dirname, '../../fixtures/omc-5.5-cost');
let home: string;
let domain: QuotaDomain | null = null;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-quota-'));
});
afterEach(() => {
  domain?.dispose();
  domain = null;
  fs.rmSync(home, { recursive: true, force: true });
});

const cfg = () => path.join(home, '.claude');
const pluginDir = () => path.join(cfg(), 'plugins', 'oh-my-claudecode');
const daemonDir = () => path.join(home, '.local', 'state', 'omc');
const env = () => ({ HOME: home, CLAUDE_CONFIG_DIR: cfg() });

function putCache(sample: string) {
  fs.mkdirSync(pluginDir(), { recursive: true });
  for (const f of fs.readdirSync(path.join(FIX, 'usage-cache', sample)))
    if (f.startsWith('.usage-cache'))
      fs.copyFileSync(path.join(FIX, 'usage-cache', sample, f), path.join(pluginDir(), f));
}
function putDaemon(sample: string, pid: number | null) {
  fs.mkdirSync(daemonDir(), { recursive: true });
  fs.copyFileSync(
    path.join(FIX, 'rate-limit-daemon', sample, 'rate-limit-daemon.json'),
    path.join(daemonDir(), 'rate-limit-daemon.json'),
  );
  // The pid file decides liveness (OMC's rule): this test's own pid is alive, DEAD_PID is not.
  if (pid !== null) fs.writeFileSync(path.join(daemonDir(), 'rate-limit-daemon.pid'), String(pid));
}
const open = () => {
  domain = new QuotaDomain({ env: env(), live: false });
  domain.scan();
  return domain.getSnapshot();
};

const hud = (sample: string) =>
  JSON.parse(fs.readFileSync(path.join(FIX, 'usage-cache', sample, 'getUsage-result.json'), 'utf8')) as {
    rateLimits: unknown;
    stale?: boolean;
  };

describe("OMC's usage cache", () => {
  const SAMPLES = [
    '02-success',
    '04-rate-limited-429',
    '06-server-error-network',
    '08-error-after-15min-stale',
    '11-legacy-cache-migrated',
    '12-zai-provider',
  ];
  it.each(SAMPLES)("%s: data served or not, stale or not, exactly as OMC's HUD read the same file", (sample) => {
    const dir = path.join(FIX, 'usage-cache', sample);
    const file = fs.readdirSync(dir).find((f) => /^\.usage-cache-[a-z]+\.json$/.test(f)) as string;
    const parsed = parseUsageCache(file, JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
    if (!parsed.ok) throw new Error(parsed.problem);
    // The HUD read it right after writing it.
    const j = judgeUsage(parsed.value, parsed.value.writtenMs as number, 90_000);
    const h = hud(sample);
    expect(j.data !== null).toBe(h.rateLimits !== null);
    expect(j.servedStale).toBe(h.stale === true);
  });

  it('the header: windows with their reset countdowns and the age; a window at 100 % says until when', () => {
    putCache('02-success');
    const q = open();
    const written = q.cache!.writtenMs as number;
    expect(q.cache?.rel).toBe('plugins/oh-my-claudecode/.usage-cache-anthropic.json');
    // 5h resets 2026-12-02T00:48:56Z, weekly 2026-12-04T22:48:56Z.
    expect(quotaHeaderText(q, written + 30_000)).toBe('5h 38% ↻1h59 · wk 61% ↻2d23h');
    expect(quotaHeaderText(q, written + 5 * 60_000)).toBe('5h 38% ↻1h54 · wk 61% ↻2d23h · 5m old');
    // Past OMC's 15 minutes since its last success, no percentage is shown any more.
    expect(quotaHeaderText(q, written + 16 * 60_000)).toBe('quota ? (no data, last read 16m ago)');
    const full = {
      ...q,
      cache: {
        ...q.cache!,
        data: { ...q.cache!.data!, fiveHour: { percent: 100, resetsMs: Date.parse('2026-12-02T00:48:56.172Z') } },
      },
    };
    expect(quotaHeaderText(full, written + 30_000)).toBe('5h 100% until 00:48 · wk 61% ↻2d23h');
    expect(planLimit(full, written + 30_000)).toEqual({
      untilMs: Date.parse('2026-12-02T00:48:56.172Z'),
      by: 'usage cache',
    });
  });

  it("this environment's source first (z.ai with its token), else the newest file, else the legacy one", () => {
    expect(sourceFor({ ANTHROPIC_BASE_URL: 'https://api.z.ai/api/anthropic', ANTHROPIC_AUTH_TOKEN: 'x' })).toBe('zai');
    expect(sourceFor({ ANTHROPIC_BASE_URL: 'https://api.z.ai/api/anthropic' })).toBe('anthropic');
    expect(sourceFor({ ANTHROPIC_BASE_URL: 'https://evil.example/z.ai' })).toBe('anthropic');
    putCache('12-zai-provider');
    expect(open().cache?.source).toBe('zai');
    domain?.dispose();
    fs.rmSync(pluginDir(), { recursive: true });
    fs.mkdirSync(pluginDir(), { recursive: true });
    fs.copyFileSync(
      path.join(FIX, 'usage-cache', '11-legacy-cache-migrated', '.usage-cache.json'),
      path.join(pluginDir(), '.usage-cache.json'),
    );
    expect(open().cache?.rel).toBe('plugins/oh-my-claudecode/.usage-cache.json');
  });

  it('a half-written cache keeps the last good figures (a problem line once confirmed)', () => {
    putCache('02-success');
    domain = new QuotaDomain({ env: env(), live: false });
    domain.scan();
    const good = domain.getSnapshot().cache;
    fs.writeFileSync(path.join(pluginDir(), '.usage-cache-anthropic.json'), '{"timestamp": 17961');
    domain.scan();
    expect(domain.getSnapshot().cache).toEqual(good);
    domain.scan();
    expect(domain.getSnapshot().cache).toEqual(good);
    expect(domain.problems()[0]?.message).toMatch(/^OMC's usage cache: /);
  });
});

describe("odd values in OMC's usage cache (sweep 3, finding 14)", () => {
  const cacheFile = () => path.join(pluginDir(), '.usage-cache-anthropic.json');
  const rewrite = (edit: (data: Record<string, any>) => void) => {
    const c = JSON.parse(fs.readFileSync(cacheFile(), 'utf8'));
    edit(c.data);
    // One byte longer than any earlier write: the stat gate sees a change even within the same millisecond.
    fs.writeFileSync(cacheFile(), JSON.stringify(c) + ' '.repeat(fs.statSync(cacheFile()).size));
  };
  const odd = (d: Record<string, any>) => {
    d.fiveHourPercent = 1e308;
    d.weeklyPercent = -40;
    d.sonnetWeeklyResetsAt = 'not a date at all';
    d.scopedWeeklyBuckets[0].percent = 'abc';
  };

  it('each odd field is a problem line and keeps its last good value; the header shows the last good figures', () => {
    putCache('02-success');
    domain = new QuotaDomain({ env: env(), live: false });
    domain.scan();
    const good = domain.getSnapshot().cache!;
    const written = good.writtenMs as number;
    rewrite(odd);
    domain.scan();
    const q = domain.getSnapshot();
    expect(q.cache?.data).toEqual(good.data);
    expect(quotaHeaderText(q, written + 30_000)).toBe('5h 38% ↻1h59 · wk 61% ↻2d23h');
    const file = `${cfg()}/plugins/oh-my-claudecode/.usage-cache-anthropic.json`;
    expect(domain.problems()).toEqual(
      [
        '"fiveHourPercent" is 1e+308, not a percentage from 0 to 100 (OMC writes one): the last good value (38%) is kept',
        '"weeklyPercent" is -40, not a percentage from 0 to 100 (OMC writes one): the last good value (61%) is kept',
        '"sonnetWeeklyResetsAt" is "not a date at all", not a time: the last good reset time is kept',
        '"scopedWeeklyBuckets "Fable" percent" is "abc", not a percentage from 0 to 100 (OMC writes one): the last good value (40%) is kept',
      ].map((m) => ({ path: file, message: `OMC's usage cache: ${m}`, severity: 'warning' })),
    );
  });

  it('read first with odd fields: those windows are not shown (never clamped to 100 % or 0 %), each said', () => {
    putCache('02-success');
    rewrite(odd);
    const q = open();
    expect(q.cache?.data?.fiveHour).toBeNull();
    expect(q.cache?.data?.weekly).toBeNull();
    expect(q.cache?.data?.scoped).toEqual([{ label: 'Sonnet', window: { percent: 12, resetsMs: null } }]);
    expect(domain?.problems().map((p) => p.message.replace(/.*: /, ''))).toEqual([
      'not shown',
      'not shown',
      'no reset time is shown',
      'not shown',
    ]);
  });

  it('a window at 100 % whose reset time has passed shows no percentage and no limit', () => {
    putCache('02-success');
    const q = open();
    const written = q.cache!.writtenMs as number;
    const resetsMs = written + 5 * 60_000;
    const full = {
      ...q,
      cache: { ...q.cache!, data: { ...q.cache!.data!, fiveHour: { percent: 100, resetsMs } } },
    };
    expect(quotaHeaderText(full, written + 60_000)).toBe('5h 100% until 22:53 · wk 61% ↻2d23h · 1m old');
    expect(planLimit(full, written + 60_000)).toMatchObject({ untilMs: resetsMs });
    expect(quotaHeaderText(full, written + 10 * 60_000)).toBe('5h ? (reset 22:53) · wk 61% ↻2d23h · 10m old');
    expect(planLimit(full, written + 10 * 60_000)).toBeNull();
  });

  it('--json: a passed reset says reset_passed with no percentage; odd fields are problem lines', () => {
    fs.mkdirSync(pluginDir(), { recursive: true });
    const now = Date.now();
    fs.writeFileSync(
      cacheFile(),
      JSON.stringify({
        timestamp: now,
        lastSuccessAt: now,
        error: false,
        source: 'anthropic',
        data: {
          fiveHourPercent: 100,
          fiveHourResetsAt: new Date(now - 60_000).toISOString(),
          weeklyPercent: 1e308,
          weeklyResetsAt: 'not a date',
        },
      }),
    );
    const root = path.join(home, 'p', '.omc');
    // An OMC root (its state/ there): an empty --root has a problem line of its own.
    fs.mkdirSync(path.join(root, 'state'), { recursive: true });
    const doc = JSON.parse(
      execFileSync(process.execPath, [path.join(REPO, 'dist', 'omc-top.mjs'), '--json', '--root', root], {
        env: { ...process.env, ...env(), XDG_STATE_HOME: path.join(home, 'state'), OMC_HOME: '' },
        encoding: 'utf8',
      }),
    );
    expect(doc.cost.quota.five_hour).toEqual({
      percent: null,
      resets_at: new Date(now - 60_000).toISOString(),
      reset_passed: true,
    });
    expect(doc.cost.quota.weekly).toBeNull();
    expect(doc.cost.quota.limited_until).toBeNull();
    expect(doc.problems.map((p: { message: string }) => p.message)).toEqual([
      `OMC's usage cache: "weeklyPercent" is 1e+308, not a percentage from 0 to 100 (OMC writes one): not shown`,
      `OMC's usage cache: "weeklyResetsAt" is "not a date", not a time: no reset time is shown`,
    ]);
  });
});

describe("OMC's wait daemon", () => {
  const proc = (tmux: string | null, status: ProcessView['status'] = 'idle') =>
    ({ status, tmux }) as unknown as ProcessView;

  it('Linux keeps its files in ~/.local/state/omc (OMC_HOME and XDG_STATE_HOME first); macOS in ~/.omc/state', () => {
    expect(waitDaemonDir({ HOME: '/h' }, 'linux')).toBe('/h/.local/state/omc');
    expect(waitDaemonDir({ HOME: '/h', XDG_STATE_HOME: '/x' }, 'linux')).toBe('/x/omc');
    expect(waitDaemonDir({ HOME: '/h', OMC_HOME: '/o' }, 'linux')).toBe('/o/state');
    expect(waitDaemonDir({ HOME: '/h' }, 'darwin')).toBe('/h/.omc/state');
  });

  it('alive by its pid, the plan limited until its next reset: loops not busy are "rate-limited, resumes HH:MM"', () => {
    putDaemon('static-limit-screen/01-first-poll-limited', process.pid);
    const q = open();
    expect(q.daemon).toMatchObject({ alive: true, pid: process.pid, state: { limited: true } });
    const at = Date.parse('2026-12-01T22:43:00Z');
    const reset = Date.parse('2026-12-01T23:24:50.215Z');
    // Its first poll listed pane %0: a loop in that pane is the one it will resume.
    expect(rateLimitFor(q, proc('main:@0.%0'), at)).toEqual({
      untilMs: reset,
      by: 'wait daemon',
      daemonAlive: true,
      daemonResumes: true,
    });
    expect(rateLimitFor(q, proc('main:@0.%7'), at)).toMatchObject({ daemonResumes: false, daemonAlive: true });
    // A busy CLI is not held; nothing after the reset.
    expect(rateLimitFor(q, proc('main:@0.%0', 'busy'), at)).toBeNull();
    expect(rateLimitFor(q, proc('main:@0.%0'), reset + 1)).toBeNull();
  });

  it("a later poll's empty blockedPanes says nothing about resuming; a dead pid is no daemon, whatever isRunning says", () => {
    putDaemon('static-limit-screen/02-later-poll-limited', process.pid);
    const at = Date.parse('2026-12-01T22:44:00Z');
    expect(rateLimitFor(open(), proc('main:@0.%0'), at)).toMatchObject({ by: 'wait daemon', daemonResumes: false });
    domain?.dispose();
    putDaemon('static-limit-screen/02-later-poll-limited', DEAD_PID);
    const q = open();
    expect(q.daemon).toMatchObject({ alive: false, pid: DEAD_PID, state: { limited: true } });
    expect(planLimit(q, at)).toBeNull();
  });

  it('stopped cleanly: no pid file, isRunning false, nothing limited', () => {
    putDaemon('cli-start-no-credentials', null);
    expect(open().daemon).toMatchObject({ alive: false, pid: null, state: { limited: null } });
  });
});
