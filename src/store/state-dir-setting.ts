/**
 * OMC_STATE_DIR as OMC's hooks get it, for finding the root. Claude Code starts its hooks with the `env` of its
 * settings files laid over its own environment (claude/hook-env.ts, the one resolver), so a user who keeps
 * `"env": {"OMC_STATE_DIR": …}` in `~/.claude/settings.json` or the project's `.claude/settings*.json` has OMC
 * write under that directory whatever shell omc-top or Claude runs in. Only the settings layers are taken here:
 * without one, the environment given (omc-top's own, or a live Claude's for the fleet) decides, as before.
 */
import type { GitProbe } from '../io/git.js';
import { HookEnv } from './claude/hook-env.js';

export interface StateDirOfHooks {
  /** The value the hooks see (undefined: unset; '' is unset to OMC too). */
  value: string | undefined;
  /** The settings file that set it, in words ("~/.claude/settings.json"), or null when `env` decided. */
  from: string | null;
}

export function stateDirOfHooks(opts: {
  env: NodeJS.ProcessEnv;
  /** The environment that names Claude's config directory (CLAUDE_CONFIG_DIR, HOME); default `env`. */
  claudeEnv?: NodeJS.ProcessEnv;
  /** Where Claude is started for this project (its settings files are read for it). */
  projectDir: string;
  git: GitProbe;
  managedDir?: string;
}): StateDirOfHooks {
  const s = new HookEnv({
    env: opts.env,
    claudeEnv: opts.claudeEnv,
    projectDir: opts.projectDir,
    processes: false,
    git: opts.git,
    managedDir: opts.managedDir,
  }).get('OMC_STATE_DIR');
  return s.fromSettings
    ? { value: s.value ?? undefined, from: s.source }
    : { value: opts.env.OMC_STATE_DIR, from: null };
}
