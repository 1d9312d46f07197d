/**
 * The facts of item 24 read from transcripts and registry files the real
 * Claude Code 2.1.332 wrote (test/fixtures/claude/README.md says where each
 * came from): the call a permission dialog is about, the end of a turn a
 * cancel waits for, and Claude Code's own figures at exit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TranscriptReader } from '../../../src/store/claude/transcript-reader.js';
import { lifeOf, waitingFact } from '../../../src/store/claude/life.js';
import { parseWindows, tmuxWhere } from '../../../src/store/claude/tmux-names.js';
import { numberedIterations, loopAnalytics } from '../../../src/store/claude/analytics.js';
import type { ClaudeSessionView, ProcessView } from '../../../src/store/claude/model.js';
import { claudeAtSignal, followClaude } from '../../../src/store/cancel/tracker.js';

const FIX = path.join(__dirname, '..', '..', 'fixtures', 'claude');
const lines = (f: string) => fs.readFileSync(path.join(FIX, f), 'utf8').split('\n').filter(Boolean);

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-samples-'));
  fs.mkdirSync(path.join(dir, 'projects', '-p'), { recursive: true });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function factsOf(ls: string[]) {
  const rel = 'projects/-p/s.jsonl';
  fs.writeFileSync(path.join(dir, rel), ls.map((l) => l + '\n').join(''));
  const r = new TranscriptReader(dir, rel);
  r.refresh();
  return r.state().facts;
}

/** A process view made from a real registry file, judged as the domain would a live one. */
function viewOf(entry: Record<string, any>, where: string | null): ProcessView {
  return {
    pid: entry.pid,
    sessionId: entry.sessionId,
    status: entry.status,
    reason: 'test',
    since: entry.statusUpdatedAt,
    entrypoint: entry.entrypoint,
    version: entry.version,
    kind: entry.kind,
    name: entry.name,
    tmux: entry.tmux,
    tmuxWhere: where,
    cwd: entry.cwd,
    waitingFor: entry.waitingFor ?? null,
    procStart: entry.procStart,
    startedAt: entry.startedAt,
    registryRel: `sessions/${entry.pid}.json`,
  };
}

describe('real Claude Code 2.1.332 samples', () => {
  it('a permission dialog: the pending Bash call, its command, the session name and tmux place', () => {
    const f = factsOf(lines('waiting-pending-tool_use-line.json'));
    expect(f.pendingCalls).toEqual([
      expect.objectContaining({ name: 'Bash', arg: 'touch made1.txt', id: 'toolu_d79e5289_1' }),
    ]);
    const entry = JSON.parse(fs.readFileSync(path.join(FIX, 'waiting-registry.json'), 'utf8'));
    // Without tmux the registry's own text; with a listing of that server, the names a user types.
    expect(tmuxWhere(entry.tmux, null)).toBe('main:@0.%0');
    const windows = parseWindows('main\t@0\t0\tclaude\nother\t@1\t0\tx\n');
    expect(tmuxWhere(entry.tmux, windows)).toBe('main:0 claude');
    // A window id of another server's session is not trusted.
    expect(tmuxWhere(entry.tmux, parseWindows('elsewhere\t@0\t3\tvim\n'))).toBe('main:@0.%0');
    const w = waitingFact(viewOf(entry, tmuxWhere(entry.tmux, windows)), f);
    expect(w).toMatchObject({
      for: 'permission prompt',
      call: { name: 'Bash', arg: 'touch made1.txt' },
      more: 0,
      name: 'proj-87',
      where: 'main:0 claude',
      text: 'permission prompt: Bash touch made1.txt',
    });
  });

  it('a command with control bytes and a huge length reaches no view raw', () => {
    const [line] = lines('waiting-pending-tool_use-line.json');
    const v = JSON.parse(line as string);
    v.message.content[0].input.command = `rm -rf ./cache\u001b[2J\u202e${'x'.repeat(5000)}`;
    const f = factsOf([JSON.stringify(v)]);
    const arg = f.pendingCalls[0]?.arg ?? '';
    expect(arg.startsWith('rm -rf ./cache')).toBe(true);
    expect(arg).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(arg.length).toBeLessThan(400);
  });

  it('a busy ralph cancelled: pending while the command runs, then the turn end the cancel waits for', () => {
    const all = lines('busy-ralph-cancel-then-exit.jsonl');
    const bashUse = all.findIndex((l) => l.includes('"type":"tool_use"') && l.includes('"name":"Bash"'));
    const during = factsOf(all.slice(0, bashUse + 1));
    expect(during.pendingCalls.map((c) => `${c.name} ${c.arg}`)).toEqual(['Bash timeout 25 tail -f /dev/null']);
    expect(during.lastTurnEndMs).toBeNull();
    // The work before the first Stop-hook block is OMC's iteration 1.
    expect(numberedIterations(during, { iteration: 1 }).map((i) => i.iteration)).toEqual([1]);

    const cancelMs = Date.parse('2026-12-01T23:26:44.190Z');
    const busy = { status: 'busy' as const, pid: 27566, sinceMs: cancelMs - 20_000, lastTurnEndMs: null };
    const side = claudeAtSignal(busy, cancelMs);
    expect(side).toMatchObject({ atCancel: 'busy', stoppedMs: null });

    const after = factsOf(all);
    expect(after.pendingCalls).toEqual([]);
    const turnEnd = Date.parse('2026-12-01T23:27:12.562Z');
    expect(after.lastTurnEndMs).toBe(turnEnd);
    const stopped = followClaude(side, { ...busy, lastTurnEndMs: after.lastTurnEndMs }, cancelMs);
    expect(stopped).toMatchObject({ stoppedMs: turnEnd, seen: 'turn-end' });
  });

  it("/exit: Claude Code's own figures (the last cost-state line), the session exited, no burn rate", () => {
    const all = lines('busy-ralph-cancel-then-exit.jsonl');
    const f = factsOf(all);
    const last = JSON.parse(all.filter((l) => l.includes('"type":"cost-state"')).pop() as string);
    expect(f.exit).toMatchObject({
      usd: last.totalCostUSD,
      startMs: last.startTime,
      durationMs: last.totalDuration,
      endMs: last.startTime + last.totalDuration,
      toolDurationMs: last.totalToolDuration,
    });
    const view: ClaudeSessionView = {
      sessionId: last.sessionId,
      process: null,
      transcript: { rel: 'x', facts: f, subagents: null, size: 0, partialFrom: 0, problem: null },
      waiting: null,
    };
    expect(lifeOf(view)).toMatchObject({ status: 'exited', sinceMs: last.startTime + last.totalDuration });
    expect(loopAnalytics(f, null, (f.exit?.endMs as number) + 1000, true).burnPerMin).toBeNull();
  });

  it('cost-state with subagents: one entry per model, as the CLI counted them', () => {
    const f = factsOf(lines('exit-cost-state-with-subagents.jsonl'));
    expect(f.exit?.models.map((m) => m.model).sort()).toEqual(['claude-haiku-5-5', 'claude-opus-5-5']);
    const opus = f.exit?.models.find((m) => m.model === 'claude-opus-5-5');
    expect(opus?.tokens).toEqual({ input: 1134, output: 144, cacheRead: 34000, cacheWrite: 55 });
  });
});
