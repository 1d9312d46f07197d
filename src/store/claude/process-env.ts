/**
 * The OMC_STATE_DIR a running Claude Code process was started with. OMC's hooks inherit Claude's environment, so
 * that value, not omc-top's own, says where they keep the session's state: a Claude started `OMC_STATE_DIR=… claude`
 * (an alias many use) writes under that directory, one started without it writes in its project whatever omc-top
 * runs with. Read from /proc/<pid>/environ (Linux: the environment the process was started with, which cannot
 * change, so once per process is enough) through the one safe read path, as its command line is for --plugin-dir.
 */
import { readTextSync } from '../../io/safe-fs/index.js';
import { cleanLine } from '../../io/sanitize.js';

/** The process's OMC_STATE_DIR (null: not set), or why its environment cannot be read here. */
export type ProcessStateDir = { ok: true; stateDir: string | null } | { ok: false; why: string };

/** An environment is a few KiB; a larger one is cut (and what is past the cut is not looked at). */
const ENVIRON_MAX_BYTES = 1024 * 1024;
const NAME = 'OMC_STATE_DIR=';

export function stateDirOfProcess(pid: number): ProcessStateDir {
  if (process.platform !== 'linux') return { ok: false, why: 'no /proc on this system' };
  if (!Number.isSafeInteger(pid) || pid <= 0) return { ok: false, why: `no such process id ${pid}` };
  const r = readTextSync('/proc', `${pid}/environ`, ENVIRON_MAX_BYTES, { nulSeparated: true, rootLabel: '/proc' });
  if (!r.ok) return { ok: false, why: cleanLine(r.message) };
  for (const kv of r.text.split('\u0000'))
    if (kv.startsWith(NAME)) return { ok: true, stateDir: kv.slice(NAME.length) };
  return { ok: true, stateDir: null };
}

/** The environment OMC's hooks under that process see for root finding: `env` with the process's OMC_STATE_DIR. */
export function envWithStateDir(env: NodeJS.ProcessEnv, stateDir: string | null): NodeJS.ProcessEnv {
  const out = { ...env };
  if (stateDir === null) delete out.OMC_STATE_DIR;
  else out.OMC_STATE_DIR = stateDir;
  return out;
}
