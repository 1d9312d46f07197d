/**
 * Which OMC runs this project's hooks and where its state is: the two questions depend on each
 * other (the enabled plugin is found from the project directory; where a release keeps `.omc`
 * depends on the release), so they are answered together: the install first, from the git
 * top level (or cwd), then the root by that release's rules, then the install again if the root
 * named another project directory.
 */
import path from 'node:path';
import { gitOnePass, realGit, type GitProbe } from '../io/git.js';
import { detectOmcInstall, type OmcInstall } from './omc-install.js';
import { resolveOmcRoot, type RootResolution } from './root.js';
import { homeDir } from '../io/home-dir.js';

/** "OMC 4.4.4 (plugin oh-my-claudecode@omc …)" for notices. */
export const omcWords = (o: OmcInstall): string => `OMC ${o.version ?? '?'} (${o.source})`;

export function resolveRootAndOmc(opts: {
  cwd: string;
  rootOverride?: string;
  /** --omc-version */
  override?: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
  git?: GitProbe;
}): {
  res: RootResolution;
  omc: OmcInstall;
  /** The same finding of the install made again (for a running monitor: omc-recheck.ts); the root stays. */
  redetect: () => OmcInstall;
} {
  const env = opts.env ?? process.env;
  // One answer per question: the install and the root both start from the top level of the working directory.
  const git = gitOnePass(opts.git ?? realGit);
  const cwd = path.resolve(opts.cwd);
  const guess = git.topLevel(cwd) ?? cwd;
  const first = detectOmcInstall({ env, projectDir: guess, override: opts.override });
  const res = resolveOmcRoot({
    cwd,
    env,
    home: opts.home ?? homeDir(env),
    git,
    rootOverride: opts.rootOverride,
    flavor: first.assumed ? null : first.book.rootFlavor,
    omcWords: omcWords(first),
  });
  const projectDir = res.projectDir === guess ? guess : res.projectDir;
  // The files only: a live Claude process's --plugin-dir is read once per process by the claude domain, and a look
  // at every live process's command line on each tick would cost a monitor at rest per process (issue 30).
  const redetect = () => detectOmcInstall({ env, projectDir, override: opts.override, processes: false });
  const omc =
    res.projectDir === guess ? first : detectOmcInstall({ env, projectDir: res.projectDir, override: opts.override });
  return { res, omc, redetect };
}
