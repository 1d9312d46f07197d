/**
 * Key bindings as data. A pane declares one table; the router dispatches from
 * it, the footer and the `?` help are generated from it, and so is the
 * README's key table (scripts/readme-keys.mjs, checked by a test). One edit
 * per key: the three descriptions can no longer drift apart.
 */
import { readonlyRefusal } from '../io/readonly-words.js';
import type { Binding, BindingContext, KeySpec } from './pane.js';
import type { InputEvent } from '../terminal/keys.js';

export type { Binding, BindingContext, KeySpec, Mode } from './pane.js';

export const READONLY_REASON = 'read-only (--readonly): nothing is written';

const NAMED: Record<string, string> = {
  up: '↑',
  down: '↓',
  left: '←',
  right: '→',
  enter: 'Enter',
  escape: 'Esc',
  tab: 'Tab',
  backtab: 'Shift-Tab',
  backspace: 'Backspace',
  delete: 'Delete',
  home: 'Home',
  end: 'End',
  pageup: 'PgUp',
  pagedown: 'PgDn',
  wheelup: 'wheel ↑',
  wheeldown: 'wheel ↓',
  click: 'click',
  ' ': 'Space',
};

/** How a key is written for people: 'ctrl+d' → 'Ctrl-D', 'down' → '↓'. */
export function keyLabel(k: KeySpec): string {
  if (k.startsWith('ctrl+')) return `Ctrl-${k.slice(5).toUpperCase()}`;
  if (/^f\d+$/.test(k)) return k.toUpperCase();
  return NAMED[k] ?? k;
}

export const keysLabel = (keys: readonly KeySpec[]) => keys.map(keyLabel).join(', ');

/** True when the event is the key the spec names. */
export function matchKey(spec: KeySpec, ev: InputEvent): boolean {
  if (ev.kind !== 'key') return false;
  const k = ev.key;
  if (spec.startsWith('ctrl+')) return k.name === 'char' && k.ctrl && k.ch === spec.slice(5);
  if ([...spec].length === 1) return k.name === 'char' && k.ch === spec && !k.ctrl && !k.meta;
  return k.name === spec && !k.meta;
}

export const applies = <S, C extends BindingContext<S>>(b: Binding<S, C>, s: S) => b.when?.test(s) ?? true;

/**
 * The keys the pane's bindings take in this state: where one of them is a pane's hotkey, the key does the pane's
 * thing (the session detail's `n` denies a permission request), so the footer must not offer it as the pane switch.
 */
export function claimedKeys<S, C extends BindingContext<S>>(bindings: readonly Binding<S, C>[], s: S): Set<string> {
  const out = new Set<string>();
  for (const b of bindings) if (applies(b, s)) for (const k of b.keys) out.add(k);
  return out;
}

/** Why a binding cannot run now, or null when it can. */
export function disabledReason<S, C extends BindingContext<S>>(b: Binding<S, C>, ctx: C): string | null {
  if (b.writes && ctx.app.readonly) return READONLY_REASON;
  return b.disabled?.(ctx) ?? null;
}

/**
 * Runs the first binding for this key that applies in the current state.
 * A disabled binding still takes its key and says why (so the key never falls
 * through to a global meaning). Returns false when no binding has the key.
 */
export function dispatch<S, C extends BindingContext<S>>(
  bindings: readonly Binding<S, C>[],
  ev: InputEvent,
  ctx: C,
): boolean {
  const b = bindings.find((x) => applies(x, ctx.state) && x.keys.some((k) => matchKey(k, ev)));
  if (!b) return false;
  if (b.writes && ctx.app.readonly) {
    ctx.app.flash(b.readonlyText ?? readonlyRefusal(b.hint ?? b.help), 'error');
    return true;
  }
  const why = b.disabled?.(ctx) ?? null;
  if (why) ctx.app.flash(why, 'info');
  else b.run(ctx, ev);
  return true;
}

/**
 * Footer hints for the current state: the bindings with a hint that apply and are not disabled by --readonly,
 * and (given the key context) that are offered for what is on screen.
 */
export function footerHints<S, C extends BindingContext<S>>(
  bindings: readonly Binding<S, C>[],
  s: S,
  readonly: boolean,
  ctx?: C,
): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const b of bindings) {
    if (!b.hint || !applies(b, s) || (b.writes && readonly)) continue;
    if (b.offered && ctx && !b.offered(ctx)) continue;
    out.push([b.hintKeys ?? keyLabel(b.keys[0] as string), b.hint]);
  }
  return out;
}

export interface HelpRow {
  mode: string;
  keys: string;
  help: string;
}

/**
 * Every binding as a help row, grouped by mode in declaration order; write keys are marked under --readonly. Given
 * the pane's state (`here`), the modes that apply in it come first: `?` in a list starts with the list's keys; given
 * its key context too, a key that applies but is disabled now says why, in the words pressing it would flash.
 */
export function helpRows<S, C extends BindingContext<S>>(
  bindings: readonly Binding<S, C>[],
  readonly: boolean,
  here?: { state: S; ctx?: C },
): HelpRow[] {
  const order: string[] = [];
  const byMode = new Map<string, HelpRow[]>();
  const now = new Set<string>();
  for (const b of bindings) {
    const mode = b.when?.name ?? '';
    if (!byMode.has(mode)) {
      byMode.set(mode, []);
      order.push(mode);
    }
    if (here && applies(b, here.state)) now.add(mode);
    let help = b.writes && readonly ? `${b.help} (disabled: ${READONLY_REASON})` : b.help;
    const why =
      here?.ctx && !(b.writes && readonly) && applies(b, here.state) ? (b.disabled?.(here.ctx) ?? null) : null;
    if (why) help = `${help} (not now: ${why})`;
    byMode.get(mode)!.push({ mode, keys: b.helpKeys ?? keysLabel(b.keys), help });
  }
  const ordered = here ? [...order.filter((m) => now.has(m)), ...order.filter((m) => !now.has(m))] : order;
  return ordered.flatMap((m) => byMode.get(m) ?? []);
}
