/**
 * Where each live Claude's OMC keeps its state, for `omc-top --all`: the root a plain `omc-top` in the Claude's
 * working directory would find, with that Claude's own OMC_STATE_DIR (its hooks inherit its environment), never the
 * fleet's: a fleet started with OMC_STATE_DIR still finds the Claudes that run without it, and one started without
 * it finds those that run with it. A Claude that runs with an OMC_STATE_DIR of its own whose state cannot be found
 * is said (one line each), never dropped silently: the header counts it among the machine's Claude sessions, and
 * this line says why it has no row. One without (a project with no .omc) is a Claude not running OMC there.
 */
import type { GitProbe } from '../io/git.js';
import { isDirectorySync } from '../io/safe-fs/index.js';
import { shownPath } from '../io/shown-path.js';
import type { RegistryEntry } from '../store/claude/registry.js';
import { envWithStateDir, stateDirOfProcess, type ProcessStateDir } from '../store/claude/process-env.js';
import { resolveOmcRoot, type RootResolution } from '../store/root.js';

export interface ClaudeRootsMemo {
  /** Each process's OMC_STATE_DIR by pid and start time (read once: a process's environment as started is fixed). */
  stateDirs: Map<string, ProcessStateDir>;
  /** Resolutions by OMC_STATE_DIR and cwd (each runs git); one whose root did not exist yet is looked for again. */
  roots: Map<string, RootResolution>;
}

export const newClaudeRootsMemo = (): ClaudeRootsMemo => ({ stateDirs: new Map(), roots: new Map() });

export interface ClaudeRoots {
  /** The roots found, one per distinct resolution (many sessions share a project), with a Claude directory that led there. */
  roots: Array<{ res: RootResolution; cwd: string }>;
  /** One line per Claude whose state is not shown, or whose environment could not be read. */
  problems: string[];
}

/** The roots of the live Claudes `entries`, each resolved with its own OMC_STATE_DIR. */
export function claudeRoots(
  entries: readonly RegistryEntry[],
  opts: {
    env: NodeJS.ProcessEnv;
    home: string;
    git: GitProbe;
    memo?: ClaudeRootsMemo;
    /** How a directory's root is found with a given environment (discover.ts's `resolve`); default: the newest rules. */
    resolve?: (cwd: string, env: NodeJS.ProcessEnv) => RootResolution;
  },
): ClaudeRoots {
  const memo = opts.memo ?? newClaudeRootsMemo();
  const problems: string[] = [];
  const roots = new Map<string, { res: RootResolution; cwd: string }>();
  const live = new Set<string>();
  // Many sessions share a cwd: its directory is looked at once, each distinct setting resolved once (git runs).
  const resolvedNow = new Set<string>();
  const byCwd = new Map<string, RegistryEntry[]>();
  for (const e of entries) if (e.cwd !== null) byCwd.set(e.cwd, [...(byCwd.get(e.cwd) ?? []), e]);
  for (const cwd of [...byCwd.keys()].sort()) {
    const here = (byCwd.get(cwd) as RegistryEntry[]).sort((a, b) => a.pid - b.pid);
    const gone = !isDirectorySync(cwd);
    for (const e of here) {
      const key = `${e.pid}:${e.procStart}`;
      live.add(key);
      let own = memo.stateDirs.get(key);
      if (!own) memo.stateDirs.set(key, (own = stateDirOfProcess(e.pid)));
      // Unreadable (another user's process, no /proc): looked for as omc-top's own environment says, and said.
      const env = own.ok ? envWithStateDir(opts.env, own.stateDir) : opts.env;
      if (!own.ok)
        problems.push(
          `Claude pid ${e.pid}: its environment cannot be read (${own.why}): its state is looked for with omc-top's own OMC_STATE_DIR`,
        );
      if (gone) {
        problems.push(`Claude pid ${e.pid}: its state is not found (its directory ${shownPath(cwd)} is gone)`);
        continue;
      }
      const rkey = `${env.OMC_STATE_DIR ?? ''}\u0000${cwd}`;
      let res = memo.roots.get(rkey);
      if (!res || (!res.exists && !resolvedNow.has(rkey))) {
        res = opts.resolve ? opts.resolve(cwd, env) : resolveOmcRoot({ cwd, env, home: opts.home, git: opts.git });
        memo.roots.set(rkey, res);
        resolvedNow.add(rkey);
      }
      if (res.exists) {
        if (!roots.has(res.root)) roots.set(res.root, { res, cwd });
      }
      // Said only where the Claude keeps its state elsewhere than the fleet would look (its own OMC_STATE_DIR): a
      // Claude in a project with no .omc is one not running OMC there (most on a machine), not a loop lost.
      else if (own.ok && own.stateDir && own.stateDir !== (opts.env.OMC_STATE_DIR ?? null))
        problems.push(`Claude pid ${e.pid}: its state is not found (${notFoundWords(res, own)})`);
    }
  }
  for (const k of memo.stateDirs.keys()) if (!live.has(k)) memo.stateDirs.delete(k);
  return { roots: [...roots.values()], problems };
}

/** "OMC_STATE_DIR=/x: looked in /x/p-123" — the Claude's own setting first when it has one. */
function notFoundWords(res: RootResolution, own: ProcessStateDir): string {
  const where = `looked in ${res.looked.map(shownPath).join(', ') || shownPath(res.root)}`;
  return own.ok && own.stateDir ? `it runs with OMC_STATE_DIR=${shownPath(own.stateDir)}: ${where}` : where;
}
