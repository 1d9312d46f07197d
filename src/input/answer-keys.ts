/**
 * The keys that answer an item in the `!` list: y / n / A on a permission request, y / n on an OMC gate, Enter on
 * a permission request opens its session. Under --readonly nothing is answered.
 */
import { matchKey } from '../kit/bindings.js';
import type { AnswerLine } from '../feeds/answers/items.js';
import type { InputEvent } from '../terminal/keys.js';
import { answerPermissionItem, decideGateItem } from './answer-actions.js';
import type { OmcStore } from '../store/store.js';
import type { AppActions } from '../kit/pane.js';
import type { UiStore } from '../kit/ui-store.js';

/** What answering needs of the router's environment. */
export interface AnswerEnv {
  store: OmcStore;
  app: AppActions;
  ui: UiStore;
}

export function routeAnswerKey(ev: InputEvent, line: AnswerLine, env: AnswerEnv): boolean {
  const a = line.answer;
  const key = (['y', 'n', 'A', 'enter'] as const).find((k) => matchKey(k, ev));
  if (!key) return false;
  if (key === 'enter') {
    if (a.kind !== 'permission') {
      env.app.flash('y approves, n denies this gate (Esc closes)', 'info');
      return true;
    }
    env.ui.setOverlay(null);
    env.ui.setPane('sessions');
    return true;
  }
  if (env.app.readonly) {
    env.app.flash('--readonly: nothing is answered (nothing is written)', 'error');
    return true;
  }
  if (a.kind === 'permission') {
    if (key === 'A' && !a.request.alwaysOffered) {
      env.app.flash('"always" is offered for Bash commands only: y or n', 'info');
      return true;
    }
    answerPermissionItem(env.store, env.app, a, key === 'y' ? 'allow' : key === 'n' ? 'deny' : 'always');
    return true;
  }
  if (key === 'A') return false;
  decideGateItem(env.store, env.app, a, key === 'y' ? 'approved' : 'denied');
  return true;
}
