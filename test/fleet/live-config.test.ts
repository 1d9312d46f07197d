/**
 * The fleet's config file followed live (src/fleet/live-config.ts), against real files: what an edit makes the
 * settings in force and the problem line the fleet shows (run-fleet.tsx puts `getSnapshot` on screen and hands
 * `onApply` to the hosts, title, prices and notify).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { waitFor } from '../helpers/fixtures.js';
import { loadConfig, type OmcTopConfig } from '../../src/config/config-file.js';
import { NOT_APPLIED, watchConfig, type LiveConfig } from '../../src/fleet/live-config.js';

let live: LiveConfig | null = null;
let dir: string | null = null;
afterEach(() => {
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
});
