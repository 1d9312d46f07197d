/**
 * The three books at the boundaries the generators rarely hit, against what each version's real Stop
 * hook answered (test/fixtures/omc-4.15.10/boundary.json and repro.json, made by running the hooks of
 * OMC 4.15.10, 5.5.0 and 4.4.4: see PROVENANCE): the reinforcement caps (autopilot after 19 is still
 * held, 20 lets go), legacy and session cancel signals next to another session's hook-started ralph,
 * the Stop payload's escapes (stop_hook_active: true, a context-limit or user-abort or auth reason, a
 * transcript at 96 % context; a rate limit is no escape), 4.15 without flock, and state copies in
 * ~/.omc/state. Each case is replayed in memory with the case's payload as the hook got it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stopVerdict, type HookTree, type RulesVersion } from '../../src/store/verdict/index.js';
import { transcriptPercent } from '../../src/store/verdict/payload.js';
import { REPO } from '../helpers/fixtures.js';

const DIR = path.join(REPO, 'test/fixtures/omc-4.15.10');
const NOW = Date.parse('2026-06-01T12:00:00.000Z');
const CWD = '/tmp/omc-top-boundary/repo';
const A = 'aaaaaaaa-1111-4222-8333-000000000001';

interface Case {
  version: RulesVersion;
  name: string;
  files: Record<string, unknown>;
  payload: Record<string, unknown>;
  sid: string;
  flock: boolean;
  hook: { decision: 'block' | 'stop'; mode: string | null };
}

function memoryTree(files: Map<string, unknown>): HookTree {
  return {
    read: (rel) => (rel.startsWith('~/') ? files.get(rel) : files.get(`.omc/${rel}`)) ?? null,
    findOwnedCopy(file, sid) {
      for (const [rel, v] of files) {
        const m = /^\.omc\/(state\/sessions\/[^/]+\/(.+))$/.exec(rel);
        if (m && m[2] === file && v && (v as Record<string, unknown>).session_id === sid)
          return { rel: m[1] as string, value: v };
      }
      return null;
    },
  };
}

function judge(c: Case) {
  const fix = (v: unknown) => JSON.parse(JSON.stringify(v).split('<CWD>').join(CWD)) as unknown;
  const files = new Map<string, unknown>();
  let transcript = '';
  for (const [rel0, v] of Object.entries(c.files)) {
    const rel = rel0.startsWith('~/') || rel0.startsWith('.omc/') ? rel0 : `.omc/${rel0}`;
    if (rel.endsWith('.jsonl')) transcript = String(v);
    else files.set(rel, fix(v));
  }
  // An autopilot digest signal names the SHA-256 of the autopilot state as the hook parses it.
  for (const [, v] of files) {
    const sig = v as Record<string, unknown> | null;
    if (sig && sig.target_state_sha256 === 'DIGEST') {
      const ap = [...files.entries()].find(([r]) => r.endsWith('/autopilot-state.json'))?.[1];
      sig.target_state_sha256 = createHash('sha256').update(JSON.stringify(ap)).digest('hex');
    }
  }
  const payload = {
    session_id: c.sid,
    cwd: CWD,
    hook_event_name: 'Stop',
    stop_hook_active: false,
    ...c.payload,
  };
  const v = stopVerdict(memoryTree(files), {
    rules: c.version,
    sessionId: c.sid,
    cwd: CWD,
    now: NOW,
    flock: c.flock,
    stop: { payload, transcriptPercent: transcript ? transcriptPercent(transcript.slice(-4096)) : 0 },
  });
  return { decision: v.decision, mode: v.decision === 'block' ? v.mode : null, rule: v.rule };
}

const load = (f: string) => JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')) as Record<string, any>;
const boundary = load('boundary.json');
const repro = load('repro.json');
const cases: Case[] = [
  ...['caps', 'legacy', 'payload', 'flockless'].flatMap((k) =>
    (boundary[k] as any[]).map((r) => ({
      version: r.version,
      name: `${k}: ${r.name}`,
      files: r.files,
      payload: r.payloadExtra ?? {},
      sid: A,
      flock: r.env?.OMC_TEST_FLOCK_AVAILABLE !== '0',
      hook: r.hook,
    })),
  ),
  // A payload without a session id is never asked of the engine (it judges the sessions it found).
  ...(repro.repros as any[])
    .filter((r) => r.payloadSessionId !== '(absent)')
    .map((r) => ({
      version: r.version,
      name: `repro: ${r.id}`,
      files: r.files,
      payload: r.payload ?? {},
      sid: r.payloadSessionId,
      flock: r.env?.OMC_TEST_FLOCK_AVAILABLE !== '0',
      hook: r.hook,
    })),
];

describe('the books at their boundaries, against each real Stop hook (4.15.10, 5.5.0, 4.4.4)', () => {
  it('covers the cases of issue 27', () => {
    const names = cases.map((c) => `${c.version} ${c.name}`);
    for (const want of [
      '5.5.0 caps: autopilot reinforcement_count 19',
      '5.5.0 legacy: legacy generic signal (fresh) + session A hook-started ralph',
      '5.5.0 payload: ralph with stop_hook_active true',
      '4.15.10 flockless: ralph + session generic signal, no flock (OMC test knob)',
    ])
      expect(names).toContain(want);
  });
  for (const c of cases)
    it(`${c.version} ${c.name}: ${c.hook.decision}${c.hook.mode ? `/${c.hook.mode}` : ''}`, () => {
      const got = judge(c);
      expect({ decision: got.decision, mode: got.mode }).toEqual({ decision: c.hook.decision, mode: c.hook.mode });
    });
});
