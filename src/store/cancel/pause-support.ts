/**
 * Whether a pause can pause anything, for every surface that offers one (the TUI's `p`, `omc-top cancel
 * --signal-only`, the serve page's Pause): OMC 4.4.4's wired Stop hook (persistent-mode.cjs) has no cancel-signal
 * check, so a signal written for it pauses nothing and the loop keeps the agent working. Known only where the
 * version was found; an assumed version is warned about in the plan instead (the plan's version lines).
 */
import type { OmcInstall } from '../omc-install.js';

/** Why a pause is refused for the OMC that runs the session's hooks (each surface adds how to cancel), or null. */
export function pauseRefusal(install: OmcInstall): string | null {
  if (install.assumed) return null;
  // Several OMC plugins enabled: each one's Stop hook runs, and a 4.4.4 among them keeps blocking through a pause.
  const deaf = [install, ...(install.alongside ?? [])].find((i) => i.rules === '4.4.4');
  if (!deaf) return null;
  return `OMC ${deaf.version ?? deaf.rules} runs this session's hooks (${deaf.source}); its Stop hook never reads cancel signals, so a pause would pause nothing`;
}
