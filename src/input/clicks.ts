/**
 * Mouse clicks (terminal/keys.ts reports a left press with where it landed): a click in the pane's area goes to
 * the pane's bindings with the row counted from the pane's own first row (kit/nav.ts selects the row clicked);
 * a click on a pane's tab in the footer opens that pane.
 */
import { claimedKeys } from '../kit/bindings.js';
import { frameLayout, shownProblems } from '../ui/layout.js';
import { footerTabAt, footerTabs } from '../ui/chrome.js';
import type { InputEvent } from '../terminal/keys.js';
import { paneById, type RouterEnv } from './env.js';

/** Rows above the pane: the header line. */
const PANE_TOP = 1;

const clickAt = (ev: InputEvent) => (ev.kind === 'key' && ev.key.name === 'click' ? ev.key.at : undefined);

const frameOf = (env: Pick<RouterEnv, 'store' | 'size' | 'ui'>) =>
  frameLayout(
    env.size(),
    shownProblems(env.store.status.getSnapshot(), env.store.problems.getSnapshot()).length,
    env.ui.getSnapshot().flash,
  );

/**
 * The event as the pane sees it: a click inside the pane's area with its row counted from the pane's first row;
 * null for a click outside it (the header, the message line, the footer). Any other event is returned as is.
 */
export function forPane(ev: InputEvent, env: RouterEnv): InputEvent | null {
  const at = clickAt(ev);
  if (!at || ev.kind !== 'key') return ev;
  const y = at.y - PANE_TOP;
  if (y < 0 || y >= frameOf(env).body.rows) return null;
  return { ...ev, key: { ...ev.key, at: { x: at.x, y } } };
}

/** A click on a pane's tab in the footer opens the pane; true when it was one. */
export function clickFooter(ev: InputEvent, env: RouterEnv): boolean {
  const at = clickAt(ev);
  const frame = frameOf(env);
  if (!at || at.y !== frame.height - 1) return false;
  const overlay = env.ui.state.overlay;
  const pane = paneById(env.panes, env.ui.state.pane);
  // The footer leaves out the hotkeys the pane on screen takes for itself (ui/chrome.tsx); so does this.
  const claimed = overlay ? undefined : claimedKeys(pane.bindings, env.ui.paneState(pane.id, pane.init));
  const target = footerTabAt(footerTabs(env.panes, pane.id, frame.width, claimed), at.x);
  if (!target) return false;
  if (target !== pane.id) env.ui.setPane(target);
  return true;
}
