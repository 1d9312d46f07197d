/**
 * The fleet's config file followed live (src/fleet/live-config.ts), against real files: what an edit makes the
 * settings in force and the problem line the fleet shows (run-fleet.tsx puts `getSnapshot` on screen and hands
 * `onApply` to the hosts, title, prices and notify).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, vi } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { waitFor } from '../helpers/fixtures.js';
import { loadConfig, type OmcTopConfig } from '../../src/config/config-file.js';
import { MISSING_CONFIRM_MS, NOT_APPLIED, watchConfig, type LiveConfig } from '../../src/fleet/live-config.js';
import { TRAILING_MS } from '../../src/io/watch/coalescer.js';

let live: LiveConfig | null = null;
let dir: string | null = null;
afterEach(() => {
  vi.useRealTimers();
  live?.stop();
  live = null;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** A config file holding `text`, followed from a start that read it; every settings applied is kept in `applied`. */
function follow(text: string, everyMs?: number) {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-live-config-'));
  const file = path.join(dir, 'config.json');
  fs.writeFileSync(file, text);
  const applied: OmcTopConfig[] = [];
  live = watchConfig({ atStart: loadConfig(file), file, everyMs, onApply: (after) => applied.push(after) });
  const line = () => live!.getSnapshot()[0]?.message ?? null;
  return { file, applied, line, live };
}

describe('the fleet follows its config file', () => {
  it('applies an edit with a bad field as a start does: the field left out, the rest in force, and the line says so', async () => {
    const c = follow('{"title": 3, "hosts": ["me@a:/x"]}\n');
    expect(c.line()).toContain('title: ');
    expect(c.line()).toContain('(left out: title; the rest of the file applies)');
    expect(c.live.inForce().hosts).toEqual(['me@a:/x']);

    // The same fault, a host added: the host is in force, and the line still says the rest applies (now it does).
    fs.writeFileSync(c.file, '{"title": 3, "hosts": ["me@a:/x", "me@b:/y"]}\n');
    await waitFor(() => c.applied.length > 0, { what: `the edit applied (line: ${c.line()})` });
    expect(c.applied).toEqual([{ hosts: ['me@a:/x', 'me@b:/y'] }]);
    expect(c.live.inForce().hosts).toEqual(['me@a:/x', 'me@b:/y']);
    expect(c.line()).toContain('(left out: title; the rest of the file applies)');
    expect(c.line()).not.toContain(NOT_APPLIED);

    // Another bad field: that one is left out instead, and named.
    fs.writeFileSync(c.file, '{"title": true, "hosts": ["me@a:/x"], "answers": {"alwaysDestination": "x"}}\n');
    await waitFor(() => c.applied.length > 1, { what: `the second edit applied (line: ${c.line()})` });
    expect(c.live.inForce()).toEqual({ title: true, hosts: ['me@a:/x'], answers: {} });
    expect(c.line()).toContain('answers.alwaysDestination: ');
    expect(c.line()).toContain('(left out: answers.alwaysDestination; the rest of the file applies)');

    // Not JSON at all: nothing of it is kept, so nothing is applied, and the line says so.
    fs.writeFileSync(c.file, '{"title": 3,\n "hosts": [\n');
    await waitFor(() => c.line()?.includes('not valid JSON'), { what: `the JSON fault said (line: ${c.line()})` });
    expect(c.line()).toContain(NOT_APPLIED);
    expect(c.applied).toHaveLength(2);
    expect(c.live.inForce()).toEqual({ title: true, hosts: ['me@a:/x'], answers: {} });

    // Fixed: applied, and no line.
    fs.writeFileSync(c.file, '{"hosts": ["me@a:/x"]}\n');
    await waitFor(() => c.applied.length > 2 && c.line() === null, { what: `the fix applied (line: ${c.line()})` });
    expect(c.live.inForce()).toEqual({ hosts: ['me@a:/x'] });
  });

  it('takes a file gone at the stat look as maybe an editor mid-save: the read after decides, so the hosts stay', () => {
    // The timers are the test's and the test never yields, so the watch's events are never heard here: only the stat
    // look every few seconds reads, and it lands in the editor's remove-then-write gap every time.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const text = '{"hosts": ["me@a:/x", "me@b:/y"]}\n';
    const c = follow(text, 1_000);
    expect(c.live.inForce().hosts).toEqual(['me@a:/x', 'me@b:/y']);

    fs.rmSync(c.file);
    vi.advanceTimersByTime(1_000);
    expect(c.applied).toEqual([]);
    fs.writeFileSync(c.file, text);
    vi.advanceTimersByTime(TRAILING_MS);
    expect(c.applied).toEqual([]);
    expect(c.live.inForce().hosts).toEqual(['me@a:/x', 'me@b:/y']);
    expect(c.line()).toBeNull();
    // The next look sees the file back: nothing to apply.
    vi.advanceTimersByTime(1_000 + TRAILING_MS);
    expect(c.applied).toEqual([]);

    // Removed and written again only after the read that follows the look (a slow save): still nothing applied.
    fs.rmSync(c.file);
    vi.advanceTimersByTime(1_000 + TRAILING_MS + 100);
    expect(c.applied).toEqual([]);
    fs.writeFileSync(c.file, text);
    vi.advanceTimersByTime(MISSING_CONFIRM_MS);
    expect(c.applied).toEqual([]);
    expect(c.live.inForce().hosts).toEqual(['me@a:/x', 'me@b:/y']);

    // Removed for good: still gone a while after the read that followed the look, the defaults apply (no config
    // hosts), once.
    fs.rmSync(c.file);
    vi.advanceTimersByTime(1_000 + TRAILING_MS);
    expect(c.applied).toEqual([]);
    vi.advanceTimersByTime(MISSING_CONFIRM_MS);
    expect(c.applied).toEqual([{}]);
    vi.advanceTimersByTime(5_000);
    expect(c.applied).toEqual([{}]);
  });

  it('says nothing of a symlinked file whose target is caught between remove and write at the stat look', () => {
    // home-manager's or stow's link: the watch of its directory never sees the target change, only the look does.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-live-config-'));
    fs.mkdirSync(path.join(dir, 'dotfiles'));
    fs.mkdirSync(path.join(dir, 'config'));
    const target = path.join(dir, 'dotfiles', 'omc-top.json');
    const file = path.join(dir, 'config', 'config.json');
    const text = '{"hosts": ["me@a:/x"]}\n';
    fs.writeFileSync(target, text);
    fs.symlinkSync(target, file);
    const applied: OmcTopConfig[] = [];
    live = watchConfig({ atStart: loadConfig(file), file, everyMs: 1_000, onApply: (after) => applied.push(after) });

    fs.rmSync(target);
    vi.advanceTimersByTime(1_000);
    expect(live.getSnapshot()).toEqual([]);
    fs.writeFileSync(target, text.replace('/x', '/z'));
    vi.advanceTimersByTime(TRAILING_MS);
    expect(live.getSnapshot()).toEqual([]);
    expect(applied).toEqual([{ hosts: ['me@a:/z'] }]);
  });
});
