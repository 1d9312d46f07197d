/**
 * The terminal title of every omc-top screen (terminal/title.ts) and the
 * fleet's words for it (fleetTitle): the old title pushed, the new one set
 * only when its text moved, control bytes cleaned, the old one popped back;
 * nothing at all when the title is off. The fleet's title is its header's
 * first words.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_FLEET, fleetTitle, type FleetGroup, type FleetRow, type FleetSnapshot } from '../../src/fleet/model.js';
import { headerText } from '../../src/panes/fleet/layout.js';
import { keepTitle } from '../../src/terminal/title.js';

const row = (key: string, needs: boolean) => ({ key, needs: needs ? { reason: 'waiting for you' } : null }) as FleetRow;
/** `needsYou`: what the project's monitor counts (by default one item per row that needs you). */
const group = (key: string, rows: FleetRow[], host: string | null = null, needsYou?: number): FleetGroup => ({
  key,
  label: key,
  host,
  notes: [],
  tone: 'normal',
  detail: null,
  rows,
  needsYou: needsYou ?? rows.filter((r) => r.needs !== null).length,
});
/** A text that tells its listeners at once when it is set. */
function textCell(value: string) {
  const listeners = new Set<() => void>();
  return {
    getSnapshot: () => value,
    set(next: string) {
      value = next;
      for (const l of [...listeners]) l();
    },
    subscribe(l: () => void) {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
  };
}
const snap = (groups: FleetGroup[], local = true): FleetSnapshot => ({ ...EMPTY_FLEET, groups, local, ready: true });

describe('the fleet title', () => {
  it("sums what each project's monitor counts over every project and host, in the monitor's words", () => {
    const quiet = group('a', [row('a1', false)]);
    expect(fleetTitle(snap([quiet]))).toBe('omc-top --all');
    const one = group('b', [row('b1', true), row('b2', false)]);
    expect(fleetTitle(snap([quiet, one]))).toBe('omc-top --all · needs you: 1');
    const remote = group('c', [row('c1', true)], 'me@box');
    const both = snap([quiet, one, remote]);
    expect(fleetTitle(both)).toBe('omc-top --all · needs you: 2');
    expect(headerText(both, 1).startsWith(`${fleetTitle(both)} · `)).toBe(true);
    expect(fleetTitle(snap([remote], false))).toBe('omc-top --host · needs you: 1');
    // What no row carries (an OMC gate, on the group's header) counts as its monitor counts it; so does a second
    // item of one session (its row shows the oldest).
    const gate = group('d', [row('d1', false)], null, 1);
    const twice = group('e', [row('e1', true)], null, 2);
    expect(fleetTitle(snap([quiet, gate, twice]))).toBe('omc-top --all · needs you: 3');
  });
});

describe('keepTitle', () => {
  it('pushes the old title, sets the text when it moves (cleaned), pops the old one back once', () => {
    const out: string[] = [];
    const text = textCell('omc-top --all');
    const title = keepTitle({
      enabled: true,
      write: (b) => out.push(b),
      text: () => text.getSnapshot(),
      onChange: (l) => text.subscribe(l),
    });
    expect(out).toEqual(['\x1b[22;0t', '\x1b]2;omc-top --all\x07']);
    text.set('omc-top --all · needs you: 1');
    text.set('omc-top --all · needs you: 1');
    text.set('name\x1b]2;PWN\x07 · needs you: 2');
    title.stop();
    title.stop();
    text.set('after the end');
    expect(out.slice(2)).toEqual([
      '\x1b]2;omc-top --all · needs you: 1\x07',
      expect.stringMatching(/^\x1b\]2;[^\x00-\x1f\x7f-\x9f]*\x07$/),
      '\x1b[23;0t',
    ]);
  });

  it('paused (Ctrl-Z, $EDITOR): the old title popped back, nothing set meanwhile; resumed: pushed and set again', () => {
    const out: string[] = [];
    const text = textCell('omc-top proj');
    const title = keepTitle({
      enabled: true,
      write: (b) => out.push(b),
      text: () => text.getSnapshot(),
      onChange: (l) => text.subscribe(l),
    });
    title.pause();
    title.pause();
    text.set('omc-top proj · needs you: 1');
    title.resume();
    title.resume();
    title.pause();
    title.stop();
    title.resume();
    expect(out).toEqual([
      '\x1b[22;0t',
      '\x1b]2;omc-top proj\x07',
      '\x1b[23;0t',
      '\x1b[22;0t',
      '\x1b]2;omc-top proj · needs you: 1\x07',
      '\x1b[23;0t',
    ]);
  });

  it('off (--no-title, "title": false): writes nothing, follows nothing', () => {
    const out: string[] = [];
    let subscribed = false;
    const title = keepTitle({
      enabled: false,
      write: (b) => out.push(b),
      text: () => 'x',
      onChange: () => {
        subscribed = true;
        return () => undefined;
      },
    });
    title.pause();
    title.resume();
    title.stop();
    expect([out, subscribed]).toEqual([[], false]);
  });
});
