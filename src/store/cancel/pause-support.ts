/**
 * Whether a pause can pause anything, for every surface that offers one (the TUI's `p`, `omc-top cancel
 * --signal-only`, the serve page's Pause): OMC 4.4.4's wired Stop hook (persistent-mode.cjs) has no cancel-signal
 * check, so a signal written for it pauses nothing and the loop keeps the agent working. Known only where the
 * version was found; an assumed version is warned about in the plan instead (the plan's version lines).
 */
import type { OmcInstall } from '../omc-install.js';

/** Why a pause is refused for the OMC that runs the session's hooks (each surface adds how to cancel), or null. */
export function pauseRefusal(install: OmcInstall): string | null {
  if (install.rules !== '4.4.4' || install.assumed) return null;
  return `OMC ${install.version ?? install.rules} runs this session's hooks (${install.source}); its Stop hook never reads cancel signals, so a pause would pause nothing`;
}
