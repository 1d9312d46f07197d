/**
 * doctor: omc-top's own directories. The state directory holds what omc-top keeps beside the .omc tree (the
 * acknowledgements, its cancel records, the push lease, the permission listener and requests, the status cache, the
 * drafts kept at a hang-up: counted, with how many the next start removes as too old);
 * the cache directory only the compiled code that makes a start faster. Looked at without writing anything.
 */
import path from 'node:path';
import { codeCacheDir } from '../io/code-cache.js';
import { ownDirFault, statSync } from '../io/safe-fs/index.js';
import { shownPath } from '../io/shown-path.js';
import { ownStateDir } from '../io/state-dir.js';
import { STATE_DIR_USERS, stateDirHealth } from '../store/state-dir/health.js';
import { draftsLine } from '../store/drafts/old-drafts.js';
import type { DoctorCheck } from './doctor-types.js';

export function stateDirCheck(env: NodeJS.ProcessEnv): DoctorCheck {
  const dir = ownStateDir(env);
  const cache = codeCacheDir(env);
  const stateFault = ownDirFault(dir);
  const cacheFault = ownDirFault(cache);
  const details: string[] = [];
  if (stateFault) details.push(`not kept: ${STATE_DIR_USERS}`, 'set XDG_STATE_HOME to a writable directory');
  if (cacheFault) details.push(`code cache: ${cacheFault.message}; each start compiles the bundle anew (slower)`);
  else details.push(`code cache: ${shownPath(cache)}`);
  const drafts = stateFault ? null : draftsLine(dir);
  if (drafts) details.push(drafts);
  return {
    id: 'state',
    title: 'state directory',
    status: stateFault ? 'broken' : cacheFault ? 'warn' : 'ok',
    summary: stateFault ? stateFault.message : `${shownPath(dir)}${isDir(dir) ? '' : ' (made at the first write)'}`,
    details,
    data: {
      dir,
      // The shape --json's state_dir gives its problem.
      problem: stateDirHealth(dir, stateFault).problem,
      cacheDir: cache,
      cacheProblem: cacheFault ? { code: cacheFault.code, path: cacheFault.path, message: cacheFault.message } : null,
    },
  };
}

/** Through the safe stat (an lstat: a symlink planted in its place is not the directory ensureOwnDir accepts). */
const isDir = (p: string) => statSync(path.dirname(p), path.basename(p))?.isDirectory() === true;
