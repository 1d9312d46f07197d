/**
 * The switches in the hooks' environment that turn OMC's persistent-mode Stop hook off (5.5.0 and 4.15's
 * `shouldSkipPersistentModeHook`, omc-contract.md §2.6.2): `DISABLE_OMC` exactly `1` or `true`, or `OMC_SKIP_HOOKS`, a
 * comma list (items trimmed), naming `persistent-mode` or `stop-continuation`. Read from where the hooks get their
 * variables (HookEnv: Claude's settings `env`, a live Claude's environment, else omc-top's), the same sources and
 * precedence as OMC_SECURITY. 4.4.4's `.cjs` Stop hook never looks at either (its verdict ignores this).
 */
import { hookSettingWords, type HookSetting, type ProcessHookSetting } from './claude/hook-env.js';
import type { HookProcess } from './hard-max.js';

const SKIPPED = new Set(['persistent-mode', 'stop-continuation']);

/** Why the hook is off, in words ("DISABLE_OMC=1 from the project's .claude/settings.json"), or null. */
export function stopHookOff(get: (name: string) => HookSetting): string | null {
  const disable = get('DISABLE_OMC');
  if (disable.value === '1' || disable.value === 'true') return hookSettingWords(disable);
  const skip = get('OMC_SKIP_HOOKS');
  if (skip.value === null) return null;
  const named = skip.value
    .split(',')
    .map((h) => h.trim())
    .find((h) => SKIPPED.has(h));
  return named === undefined ? null : `${hookSettingWords(skip)} (skips ${named})`;
}

/**
 * The switch as last looked at: one look per refresh of the hooks' environment. Each Claude process gives its own hooks
 * its own environment, so a session whose Claude was started with `DISABLE_OMC=1` is let stop while the project's
 * other sessions are held: the switch is asked per session's process (`offFor`). Claude's settings `env` beats any
 * process's environment (HookEnv.forProcess); a session with no Claude running, or one whose environment cannot be
 * read here, is judged by the project's hooks' environment (its newest Claude's, else omc-top's), as before.
 */
export class StopHookSwitch {
  private words: string | null | undefined = undefined;
  /** Per process (pid and start), what its hooks get; looked at again on each refresh. */
  private readonly perProcess = new Map<string, { proc: HookProcess; words: string | null }>();

  constructor(
    private readonly get: (name: string) => HookSetting,
    private readonly getFor: ((name: string, proc: HookProcess) => ProcessHookSetting) | null = null,
  ) {}

  /** Why the hook is off now for the project's hooks, or null. */
  off(): string | null {
    if (this.words === undefined) this.words = stopHookOff(this.get);
    return this.words;
  }

  /** Why the hook is off for the hooks of `proc` (a session's own Claude), or null; null `proc`: the project's. */
  offFor(proc: HookProcess | null): string | null {
    if (proc === null || this.getFor === null) return this.off();
    const key = `${String(proc.pid)}:${proc.procStart ?? ''}`;
    let seen = this.perProcess.get(key);
    if (seen === undefined) {
      // The registry's processes come and go: the map is bounded by dropping what it held, looked at again on demand.
      if (this.perProcess.size >= 1024) this.perProcess.clear();
      this.perProcess.set(key, (seen = { proc, words: this.lookFor(proc) }));
    }
    return seen.words;
  }

  private lookFor(proc: HookProcess): string | null {
    const getFor = this.getFor as (name: string, proc: HookProcess) => ProcessHookSetting;
    let unknown = false;
    const words = stopHookOff((name) => {
      const s = getFor(name, proc);
      if (s.unknown !== null) unknown = true;
      return s;
    });
    // Its environment not readable here: what the project's hooks get is the best guess left.
    return unknown ? this.off() : words;
  }

  /** Looks again; true when what it says changed (for the project's hooks or any process's looked at). */
  refresh(): boolean {
    const before = this.words;
    this.words = stopHookOff(this.get);
    let moved = before !== undefined && before !== this.words;
    for (const seen of this.perProcess.values()) {
      const words = this.lookFor(seen.proc);
      if (words !== seen.words) moved = true;
      seen.words = words;
    }
    return moved;
  }
}
