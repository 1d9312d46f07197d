/**
 * The switches in the hooks' environment that turn OMC's persistent-mode Stop hook off (5.5.0 and 4.15's
 * `shouldSkipPersistentModeHook`, omc-contract.md §2.6.2): `DISABLE_OMC` exactly `1` or `true`, or `OMC_SKIP_HOOKS`, a
 * comma list (items trimmed), naming `persistent-mode` or `stop-continuation`. Read from where the hooks get their
 * variables (HookEnv: Claude's settings `env`, a live Claude's environment, else omc-top's), the same sources and
 * precedence as OMC_SECURITY. 4.4.4's `.cjs` Stop hook never looks at either (its verdict ignores this).
 */
import { hookSettingWords, type HookSetting } from './claude/hook-env.js';

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

/** The switch as last looked at: one look per refresh of the hooks' environment. */
export class StopHookSwitch {
  private words: string | null | undefined = undefined;

  constructor(private readonly get: (name: string) => HookSetting) {}

  /** Why the hook is off now, or null. */
  off(): string | null {
    if (this.words === undefined) this.words = stopHookOff(this.get);
    return this.words;
  }

  /** Looks again; true when what it says changed. */
  refresh(): boolean {
    const before = this.words;
    this.words = stopHookOff(this.get);
    return before !== undefined && before !== this.words;
  }
}
