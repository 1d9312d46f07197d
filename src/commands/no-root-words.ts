/**
 * What a command that needs the `.omc` root says when there is none: the root rules' own words, then a note for
 * each live Claude in the project whose hooks write elsewhere (its own OMC_STATE_DIR, or none where omc-top has
 * one), as the monitor's "no .omc" message names them. `status` keeps the short words: its entry loads no reader of
 * Claude's registry (docs/scripting.md).
 */
import { cleanLine } from '../io/sanitize.js';
import { stateDirHints } from '../store/claude/process-env.js';
import { noRootMessage, type RootResolution } from '../store/root.js';

export function noRootWords(res: RootResolution, env: NodeJS.ProcessEnv = process.env): string {
  return [cleanLine(noRootMessage(res)), ...rootHints(res, env).map((h) => `note: ${cleanLine(h)}`)].join('\n');
}

/**
 * The live Claudes of the project whose own OMC_STATE_DIR differs from omc-top's (stateDirHints); none when a Claude
 * settings file sets it: its `env` beats every Claude's environment, so the hooks write where the root says.
 */
export const rootHints = (res: RootResolution, env: NodeJS.ProcessEnv): string[] =>
  res.stateDirFrom === undefined ? stateDirHints(res.projectDir, env) : [];
