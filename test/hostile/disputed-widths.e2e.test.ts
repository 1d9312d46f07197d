/**
 * Class 4 of the second hardening round: text whose width terminals disagree
 * on must never wrap a row. Each string below is one that string-width and a
 * real terminal count differently (or two terminals count differently): as a
 * ralph `current_phase`, it used to wrap its row, scroll the header off,
 * duplicate rows and show two ▸. The real bundle in a real pty at 80x24.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agreeWidth } from '../../src/io/agreed-width.js';
import { writeOmcJson } from '../helpers/fixtures.js';
import { makeSandbox, type Sandbox } from '../helpers/hostile-sandbox.js';
import { TerminalHarness } from '../helpers/pty.js';

export const DISPUTED: Record<string, string> = {
  'Hangul fillers': `phase${'\u3164'.repeat(30)}${'\u115f'.repeat(30)}end`,
  'lone surrogates': `phase${'\ud800'.repeat(20)}${'\udfff'.repeat(20)}end`,
  'zero-width storm': `phase${'\u200b\u200d\u2060\ufeff'.repeat(25)}end`,
  'combining storm': `phase${'e' + '\u0301\u0308\u0327\u036f'.repeat(40)}end`,
  'emoji sequences': `phase ${'👨‍👩‍👧‍👦🏳️‍🌈🇺🇦👍🏽☺️'.repeat(6)} end`,
};

let h: TerminalHarness | null = null;
let s: Sandbox | null = null;
afterEach(() => {
  h?.dispose();
  s?.cleanup();
  h = null;
  s = null;
});

describe('agreeWidth', () => {
  it('keeps plain text, accents and CJK; drops or replaces only what terminals dispute', () => {
    expect(agreeWidth('plain ascii')).toBe('plain ascii');
    expect(agreeWidth('café naïve 字 ü')).toBe('café naïve 字 ü');
    expect(agreeWidth('e\u0301\u0301\u0301')).toBe('e\u0301');
    expect(agreeWidth('a\u3164b\u200bc')).toBe('abc');
    expect(agreeWidth('x\ud800y')).toBe('x?y');
    expect(agreeWidth('👨‍👩‍👧')).toBe('👨👩👧');
    expect(agreeWidth('🇺🇦')).toBe('??');
  });
});

describe('disputed widths in a real terminal', () => {
  it('every disputed string as a current_phase: one row each, the header stays, one ▸, healthy sessions stay on screen', async () => {
    s = makeSandbox();
    const now = new Date().toISOString();
    const sids = Object.keys(DISPUTED).map((_, i) => `d15b07e${i}-0000-4000-8000-00000000000${i}`);
    Object.values(DISPUTED).forEach((phase, i) =>
      writeOmcJson(path.join(s!.root, 'state', 'sessions', sids[i]!, 'ralph-state.json'), {
        active: true,
        iteration: 2,
        max_iterations: 10,
        current_phase: phase,
        prompt: Object.values(DISPUTED).join(' '),
        started_at: now,
        last_checked_at: now,
        session_id: sids[i],
      }),
    );
    // A healthy session that must stay visible below them.
    const healthy = 'beefcafe-0000-4000-8000-000000000001';
    writeOmcJson(path.join(s.root, 'state', 'sessions', healthy, 'ultrawork-state.json'), {
      active: true,
      reinforcement_count: 1,
      max_reinforcements: 10,
      started_at: new Date(Date.now() - 60_000).toISOString(),
      last_checked_at: new Date(Date.now() - 60_000).toISOString(),
      session_id: healthy,
    });
    expect(fs.existsSync(s.root)).toBe(true);
    h = new TerminalHarness({ args: ['--root', s.root], cols: 80, rows: 24 });
    await h.waitForText(/STATUS\s+SESSION/);
    await h.waitForText('beefcafe');
    for (const sid of sids) await h.waitForText(sid.slice(0, 8));
    await h.settle();
    const lines = h.screen();
    expect(lines[0]).toMatch(/^omc-top /);
    expect(lines.filter((l) => l.includes('▸'))).toHaveLength(1);
    for (const sid of [...sids, healthy]) expect(lines.filter((l) => l.includes(sid.slice(0, 8)))).toHaveLength(1);
    // The detail view shows the phase and the prompt in full-width lines: still one row each.
    h.write('\r');
    // The whole detail frame (its header on the first line), not only its first chunk: a loaded machine
    // can hand the pty a frame in several reads.
    await h.waitForText(/^omc-top [^\n]*\n[\s\S]*phase: phase[\s\S]*\? help/, 20_000);
    await h.settle();
    const detail = h.screen();
    expect(detail[0]).toMatch(/^omc-top /);
    expect(detail.filter((l) => /progress: .*phase: phase/.test(l))).toHaveLength(1);
    expect(detail.filter((l) => /\? help/.test(l))).toHaveLength(1);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
  });
});
