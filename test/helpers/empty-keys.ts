/**
 * What the *-empty-keys tests share: the footer as drawn (the frame's last line with text), and pressing keys that
 * act on the selected item while none is: each must say `words` in a message of its own and open nothing.
 */
import { expect } from 'vitest';
import { waitFor } from './fixtures.js';
import type { MountedApp } from './mount-app.js';

export const footerOf = (a: MountedApp): string =>
  a
    .text()
    .split('\n')
    .filter((l) => l.trim())
    .at(-1) ?? '';

/** Waits until the footer shows every hint in `present` (the pane's list keys are drawn). */
export const footerShows = (a: MountedApp, present: readonly (string | RegExp)[], what: string) =>
  waitFor(() => present.every((h) => (typeof h === 'string' ? footerOf(a).includes(h) : h.test(footerOf(a)))), {
    what: `${what}: ${footerOf(a)}`,
  });

/** The footer offers none of `hints` (each a hint as the footer writes it, e.g. 'Enter open'). */
export function offersNone(a: MountedApp, hints: readonly string[]): void {
  for (const h of hints) expect(footerOf(a)).not.toContain(h);
}

/**
 * Each key pressed says `words` (a new message on the log, not one left from the key before), and the frame after
 * it still shows `stays` (the list did not give way to a detail, an editor or a question).
 */
export async function refusesEach(a: MountedApp, keys: readonly string[], words: string, stays: string | RegExp) {
  for (const key of keys) {
    const before = a.ui.getSnapshot().log.length;
    await a.press(key);
    await waitFor(() => a.ui.getSnapshot().log.length > before, { what: `a message for ${JSON.stringify(key)}` });
    expect(a.ui.getSnapshot().log.at(-1)?.text).toBe(words);
    await a.waitForText(words);
    expect(a.text()).not.toMatch(/y yes/);
    expect(a.text()).toMatch(stays);
  }
}
