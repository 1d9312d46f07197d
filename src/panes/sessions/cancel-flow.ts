/**
 * What pressing `c` (cancel) or `p` (pause) on a session does. The full
 * cancel (OMC's signal, the state_clear recipe, the live countdown) is built
 * on src/store/cancel; until then this explains what is missing.
 */
import type { SessionView } from '../../store/sessions/model.js';
import type { KeyContext } from '../types.js';
import type { SessionsPaneState } from './reducer.js';

export function requestCancel(ctx: KeyContext<SessionsPaneState>, s: SessionView, mode: string | null, pauseOnly: boolean): void {
  if (ctx.app.readonly) {
    ctx.app.flash('--readonly: cancel is disabled (nothing is written)', 'error');
    return;
  }
  ctx.app.flash(`${pauseOnly ? 'pause' : 'cancel'} of ${s.id}${mode ? ` (${mode})` : ''} is not available yet`, 'error');
}
