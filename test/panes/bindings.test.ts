/**
 * The bindings tables are the one description of every key: the README's key
 * table is generated from them (and must match), every binding says what it
 * does, no two bindings of a pane claim the same key in the same state, and the
 * legend covers every status a row can show.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchKey } from '../../src/kit/bindings.js';
import type { InputEvent } from '../../src/terminal/keys.js';
import { KEYS_END, KEYS_START, keyTableMarkdown } from '../../src/panes/key-table.js';
import { FLEET_BINDINGS } from '../../src/panes/fleet/keys.js';
import { PANES } from '../../src/panes/registry.js';
import { LEGEND } from '../../src/ui/overlay-lines.js';
import { statusLabel } from '../../src/panes/sessions/rows.js';
import { unseenClaude, type TrackedCancel } from '../../src/store/cancel/tracker.js';
import { STATUS_RANK } from '../../src/store/sessions/derive.js';
import type { SessionView } from '../../src/store/sessions/model.js';
import type { BoardStatus } from '../../src/store/teams/model.js';

const KEYS_DOC = path.resolve(__dirname, '../../docs/keys.md');
const FLEET_DOC = path.resolve(__dirname, '../../docs/fleet.md');

/** Every table the app dispatches from: the panes' and the fleet view's (`--all`). */
const TABLES: ReadonlyArray<{
  id: string;
  bindings: ReadonlyArray<{ keys: readonly string[]; help: string; when?: { name: string; test: unknown } }>;
}> = [...PANES.map((p) => ({ id: p.id, bindings: p.bindings })), { id: 'fleet', bindings: FLEET_BINDINGS }];

describe('bindings tables', () => {
  it('docs/keys.md carries exactly the key table generated from the tables (run node scripts/readme-keys.mjs)', () => {
    const readme = fs.readFileSync(KEYS_DOC, 'utf8');
    const a = readme.indexOf(KEYS_START);
    const b = readme.indexOf(KEYS_END);
    expect(a).toBeGreaterThan(-1);
    expect(readme.slice(a, b + KEYS_END.length)).toBe(keyTableMarkdown(PANES));
  });

  it("docs/keys.md's generated table has the fleet's keys (`--all`), and docs/fleet.md points there", () => {
    const readme = fs.readFileSync(KEYS_DOC, 'utf8');
    const table = readme.slice(readme.indexOf(KEYS_START), readme.indexOf(KEYS_END));
    const fleet = table.slice(table.indexOf('#### Fleet (`--all`)'));
    expect(table).toContain('#### Fleet (`--all`)');
    for (const key of ['`?`', '`/`', '`q`', '`c`', '`r`', '`Ctrl-L`']) expect(fleet).toContain(`| ${key}`);
    // In the page's first part (this machine's fleet), before the other machines' section.
    const doc = fs.readFileSync(FLEET_DOC, 'utf8');
    const end = doc.indexOf('### Other machines');
    expect(end).toBeGreaterThan(0);
    const section = doc.slice(0, end);
    expect(section).toContain('**Fleet (`--all`)** table under [Keys](keys.md)');
  });

  it('every binding has keys and says what it does', () => {
    for (const p of TABLES) {
      for (const b of p.bindings) {
        expect(b.keys.length, `${p.id}: ${b.help}`).toBeGreaterThan(0);
        expect(b.help.trim().length, `${p.id}: ${b.keys.join(',')}`).toBeGreaterThan(3);
      }
    }
  });

  it('no pane binds one key twice for the same state (the second could never run)', () => {
    for (const p of TABLES) {
      const seen = new Map<string, string>();
      for (const b of p.bindings) {
        // Bindings whose state is narrowed further by a test of their own (Esc with a filter set) come first in intent;
        // two bindings with the very same mode object and key are the mistake this catches.
        for (const k of b.keys) {
          const id = `${b.when?.name ?? ''}\u0000${String(b.when?.test)}\u0000${k}`;
          expect(seen.get(id), `${p.id}: ${k} in ${b.when?.name}`).toBeUndefined();
          seen.set(id, b.help);
        }
      }
    }
  });

  it('matches keys the way the decoder delivers them', () => {
    const key = (name: string, extra: Partial<{ ch: string; ctrl: boolean; meta: boolean }> = {}): InputEvent => ({
      kind: 'key',
      key: { name: name as never, ch: '', ctrl: false, meta: false, shift: false, ...extra },
    });
    expect(matchKey('j', key('char', { ch: 'j' }))).toBe(true);
    expect(matchKey('j', key('char', { ch: 'j', meta: true }))).toBe(false);
    expect(matchKey('ctrl+d', key('char', { ch: 'd', ctrl: true }))).toBe(true);
    expect(matchKey('d', key('char', { ch: 'd', ctrl: true }))).toBe(false);
    expect(matchKey('down', key('down'))).toBe(true);
    expect(matchKey('G', key('char', { ch: 'g' }))).toBe(false);
  });

  it('the legend names every status a session or team row can show, and nothing it cannot', () => {
    const labels = LEGEND.map(([l]) => l).join(' / ');
    const now = 1_000_000;
    const shown: string[] = [];
    for (const status of Object.keys(STATUS_RANK)) {
      // Under a cancel signal in force (cancelling and paused count it down), and without one.
      shown.push(statusLabel({ status, cancel: { inForce: true, untilMs: now + 12_000 } } as SessionView, now));
      if (status !== 'cancelling') shown.push(statusLabel({ status, cancel: null } as SessionView, now));
    }
    // Every phase of omc-top's own cancel (the compiler insists the list is complete).
    const phases: Record<TrackedCancel['phase'], boolean> = {
      ended: false,
      waiting: false,
      paused: false,
      stopped: true,
      cancelled: true,
      unobserved: true,
      'not-taken': true,
      failed: true,
      'pause-over': true,
    };
    // With no Claude to see and with one in its turn at the cancel (the word of a cancel in flight differs).
    const busy = { ...unseenClaude(), atCancel: 'busy' as const, status: 'busy' as const };
    for (const claude of [unseenClaude(), busy])
      for (const [phase, final] of Object.entries(phases))
        shown.push(
          statusLabel({ status: 'enforced' } as SessionView, now, {
            phase,
            final,
            requestedMs: now - 46_000,
            expiresMs: now + 12_000,
            claude,
            pauseOnly: phase === 'paused',
          } as TrackedCancel),
        );
    const boards: Record<BoardStatus, true> = { running: true, blocked: true, waiting: true, done: true };
    shown.push(...Object.keys(boards));
    for (const label of shown) expect(labels, `the legend explains "${label}"`).toContain(label);
    // Words no row prints (the registry's "active" is a detail-view line, listed as such).
    for (const stale of ['cancelling', 'tombstoned']) expect(labels).not.toContain(stale);
  });
});
