/**
 * Whether a pause can pause anything, for every surface that offers one (the TUI's `p`, `omc-top cancel
 * --signal-only`, the serve page's Pause): OMC 4.4.4's wired Stop hook (persistent-mode.cjs) has no cancel-signal
 * check, so a signal written for it pauses nothing and the loop keeps the agent working. Known only where the
 * version was found; an assumed version is warned about in the plan instead (the plan's version lines).
 *
 * Several OMC plugins enabled at once (OmcInstall.alongside): Claude Code runs each one's Stop hook and a block from
 * any holds the agent, so a cancel is planned and verified by every one of their books, not the first named only.
 */
import type { OmcInstall } from '../omc-install.js';
import type { RulesVersion } from '../verdict/types.js';

/** Every OMC whose Stop hook runs for the session: `install`, then the others enabled beside it, one per book. */
export function enabledInstalls(install: OmcInstall): OmcInstall[] {
  const out: OmcInstall[] = [];
  for (const i of [install, ...(install.alongside ?? [])]) if (!out.some((o) => o.rules === i.rules)) out.push(i);
  return out;
}

/** The books a cancel is planned with: every enabled OMC's, or null when no version was found. */
export function cancelBooks(install: OmcInstall): RulesVersion[] | null {
  return install.assumed ? null : enabledInstalls(install).map((i) => i.rules);
}

/** The first enabled OMC whose Stop hook never reads cancel signals (4.4.4's book), or null. */
export function deafInstall(install: OmcInstall): OmcInstall | null {
  return enabledInstalls(install).find((i) => i.rules === '4.4.4') ?? null;
}

/** Words naming an OMC that never reads cancel signals: "OMC 4.4.4 runs this session's hooks (…); its Stop hook…". */
export function deafWords(deaf: OmcInstall): string {
  return `OMC ${deaf.version ?? deaf.rules} runs this session's hooks (${deaf.source}); its Stop hook never reads cancel signals`;
}

/** Why a pause is refused for the OMC that runs the session's hooks (each surface adds how to cancel), or null. */
export function pauseRefusal(install: OmcInstall): string | null {
  if (install.assumed) return null;
  // Several OMC plugins enabled: each one's Stop hook runs, and a 4.4.4 among them keeps blocking through a pause.
  const deaf = deafInstall(install);
  if (!deaf) return null;
  return `${deafWords(deaf)}, so a pause would pause nothing`;
}
