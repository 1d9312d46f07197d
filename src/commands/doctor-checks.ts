/**
 * `omc-top doctor`: what a user (or a bug report) needs to know when the
 * monitor shows nothing, shows the wrong project, or polls. Each check reads
 * only (every file through fsx.ts) and says ok / warn / broken / info;
 * "broken" means omc-top cannot work as set up, and makes doctor exit 1.
 */
import path from 'node:path';
import { CLAUDE_DIR_READ, findClaudeConfigDir } from '../store/claude/config-dir.js';
import { isRegistryDirProblem, readRegistry } from '../store/claude/registry.js';
import { configWords, projectClaudeConfig, type ProjectClaudeConfig } from '../store/claude/project-config.js';
import { isDirectorySync, listDirSync } from '../io/safe-fs/index.js';
import { alongsideWords, detectOmcInstall, missingPluginDirWords, refusalWords } from '../store/omc-install.js';
import { npmGlobalPrefix } from '../store/npm-prefix.js';
import { resolveOmcRoot, rootPathFault, type RootResolution } from '../store/root.js';
import { configCheck, oscChannelInUse } from './doctor-config.js';
import { pushCheck } from './doctor-push.js';
import { hooksCheck } from './doctor-hooks.js';
import { stateDirCheck } from './doctor-state.js';
import { nodeCheck, terminalCheck, tmuxCheck } from './doctor-host.js';
import type { DoctorCheck, DoctorOptions, DoctorReport } from './doctor-types.js';
import { watchCheck } from './doctor-watch-check.js';
import { watchProbe } from './doctor-watch.js';
import { homeDir } from '../io/home-dir.js';
import { shownPath } from '../io/shown-path.js';

export type { CheckStatus, DoctorCheck, DoctorOptions, DoctorReport, TerminalFacts } from './doctor-types.js';
export { MIN_NODE } from './doctor-host.js';

/**
 * Every place a .omc could be for this user and directory: what the resolution
 * looked at, plus the ones other rules or releases use (./.omc as OMC 4.x did,
 * the project's, $HOME/.omc), so a second tree somewhere else is visible.
 */
function rootCandidates(res: RootResolution, cwd: string, env: NodeJS.ProcessEnv) {
  const extra = [path.join(path.resolve(cwd), '.omc'), path.join(res.projectDir, '.omc')];
  extra.push(path.join(homeDir(env), '.omc'));
  const all = [...new Set([res.root, ...res.looked, ...extra])];
  return all.map((p) => ({
    path: p,
    exists: isDirectorySync(p),
    chosen: p === res.root,
    considered: p === res.root || res.looked.includes(p),
  }));
}

function rootCheck(res: RootResolution, cwd: string, env: NodeJS.ProcessEnv): DoctorCheck {
  const candidates = rootCandidates(res, cwd, env);
  const details = [
    ...candidates
      .filter((c) => !c.chosen && (c.considered || c.exists))
      .map((c) =>
        c.considered
          ? `also looked at: ${shownPath(c.path)}${c.exists ? ' (exists)' : ''}`
          : `also exists, not used: ${shownPath(c.path)}`,
      ),
    ...res.notices.map((n) => `note: ${n}`),
  ];
  if (res.noOmcState) details.unshift(`warning: ${res.noOmcState}`);
  if (!res.exists)
    details.push('start OMC in this project first, or point omc-top at one with --cwd DIR or --root DIR');
  return {
    id: 'root',
    title: '.omc root',
    status: !res.exists ? 'broken' : res.noOmcState ? 'warn' : 'ok',
    summary: `${shownPath(res.root)} (${res.explain})${res.exists ? '' : `: ${rootPathFault(res.root)}`}`,
    details,
    data: {
      root: res.root,
      rule: res.rule,
      explain: res.explain,
      exists: res.exists,
      projectDir: res.projectDir,
      candidates,
      notices: res.notices,
    },
  };
}

function omcCheck(env: NodeJS.ProcessEnv, projectDir: string | null, pc?: ProjectClaudeConfig): DoctorCheck {
  const omc = detectOmcInstall({ env, projectDir, claudeConfig: pc });
  const npm = npmGlobalPrefix(env);
  return {
    id: 'omc',
    title: 'OMC install',
    // A file that decides the version and was refused may make the answer wrong: a warning that names it.
    // Two OMC plugins enabled: both Stop hooks run, which no one install's rules say alone.
    // A plugin directory the registry names and that is not there: the version is the registry's word alone.
    status:
      omc.assumed || omc.refused.length > 0 || alongsideWords(omc) !== null || missingPluginDirWords(omc) !== null
        ? 'warn'
        : 'ok',
    summary: omc.version
      ? `oh-my-claudecode ${omc.version} (${omc.source}); reading state with ${[
          ...new Set([omc, ...(omc.alongside ?? [])].map((i) => i.rules)),
        ].join(' and ')} rules${omc.alongside?.length ? ' (a block by either wins)' : ''}`
      : // The source already says it assumes (omc-install.ts): the book's number is added, "assuming" said once.
        `${omc.source} (OMC ${omc.rules})`,
    details: [
      ...omc.refused.map((r) => `not read: ${refusalWords(r)}`),
      ...[alongsideWords(omc), missingPluginDirWords(omc)].flatMap((w) => (w === null ? [] : [`warning: ${w}`])),
      ...omc.candidates.map((c) => {
        const gone = c.path !== '' && (omc.pluginDirMissing ?? []).includes(c.path);
        const where = c.path ? ` ${gone ? 'named for' : 'at'} ${shownPath(c.path)}${gone ? ' (not there)' : ''}` : '';
        return `found: ${c.version ?? 'unknown version'}${where} (${c.source})`;
      }),
      ...(pc?.notes ?? []).map((n) => `note: ${n}`),
      // Where a global npm install was looked for: a prefix set where omc-top does not look is then plain to see.
      `npm global prefix: ${shownPath(npm.dir)} (from ${npm.from})`,
    ],
    data: { ...omc, candidates: [...omc.candidates], refused: [...omc.refused], npm_prefix: npm },
  };
}

function claudeCheck(env: NodeJS.ProcessEnv, pc?: ProjectClaudeConfig): DoctorCheck {
  const cfg = pc?.config ?? findClaudeConfigDir(env);
  const base = { id: 'claude' as const, title: 'Claude Code config' };
  const data: Record<string, unknown> = { dir: cfg.dir, rule: cfg.rule };
  // Read because a Claude of the project runs with it (not omc-top's own environment): said, with the pid.
  if (pc?.chosenBy != null) data.chosenBy = pc.chosenBy;
  const top = listDirSync(cfg.dir, '.', CLAUDE_DIR_READ);
  if (!top.ok) {
    data.error = top.code;
    if (top.code === 'missing') {
      return {
        ...base,
        status: 'warn',
        summary: `${cfg.dir} (${cfg.rule}) does not exist`,
        details: ['Claude Code has not run as this user, or CLAUDE_CONFIG_DIR points somewhere else'],
        data,
      };
    }
    return {
      ...base,
      status: 'broken',
      summary: `${cfg.dir} (${cfg.rule}) cannot be read: ${top.message}`,
      details: ['omc-top cannot see which Claude Code sessions are running'],
      data,
    };
  }
  const reg = listDirSync(cfg.dir, 'sessions', CLAUDE_DIR_READ);
  if (!reg.ok) {
    data.sessions = { readable: false, error: reg.code };
    const missing = reg.code === 'missing';
    return {
      ...base,
      status: missing ? 'warn' : 'broken',
      summary: `${cfg.dir} (${cfg.rule}); session registry sessions/ ${missing ? 'does not exist' : `cannot be read: ${reg.message}`}`,
      details: missing
        ? ['Claude Code writes sessions/ once a session runs (older releases do not write it)']
        : ['omc-top cannot see which Claude Code sessions are running'],
      data,
    };
  }
  const entries = reg.entries.filter((e) => e.kind === 'file' && e.name.endsWith('.json')).length;
  // Entries the monitors cannot use: a project's monitor says only those naming it, so every one is said here.
  const notRead = readRegistry(cfg.dir).problems.filter((p) => !isRegistryDirProblem(p));
  data.sessions = { readable: true, entries, notRead: notRead.length };
  const n = notRead.length;
  return {
    ...base,
    status: n > 0 ? 'warn' : 'ok',
    summary: `${cfg.dir} (${cfg.rule}); session registry readable, ${entries} ${entries === 1 ? 'entry' : 'entries'}${n > 0 ? `, ${n} not read` : ''}`,
    details: [
      ...notRead.map(
        (p) =>
          `not read: ${p.rel}: ${p.message} (${p.cwd === undefined ? 'it names no project: no monitor says it' : `the monitor of the project in ${shownPath(p.cwd)} says it`})`,
      ),
      ...(pc?.chosenBy != null ? [`read as Claude pid ${pc.chosenBy} here runs with ${configWords(pc.config)}`] : []),
      ...(pc?.notes ?? []).map((n) => `note: ${n}`),
    ],
    data,
  };
}

export async function collectDoctorReport(opts: DoctorOptions): Promise<DoctorReport> {
  const res = resolveOmcRoot({ cwd: opts.cwd, env: opts.env, rootOverride: opts.rootOverride });
  const probe = res.exists ? await watchProbe(res, opts.poll, opts.watchTimeoutMs ?? 30_000) : null;
  // The config directory the project's Claudes run with (their registry and plugin), as the monitor reads it.
  const claudeConfig = res.projectDir !== null ? projectClaudeConfig(res.projectDir, opts.env) : undefined;
  const checks = [
    nodeCheck(opts.nodeVersion),
    rootCheck(res, opts.cwd, opts.env),
    omcCheck(opts.env, res.projectDir, claudeConfig),
    claudeCheck(opts.env, claudeConfig),
    configCheck(opts.env),
    await pushCheck(opts.env, opts.testPush === true, res.root),
    // With --root, the project of that root (as the monitor's permission keys read it), not the directory doctor
    // runs in; without it, the directory itself (a submodule's own settings, not its superproject's).
    hooksCheck(opts.rootOverride !== undefined ? (res.projectDir ?? path.dirname(res.root)) : opts.cwd, opts.env),
    stateDirCheck(opts.env),
    watchCheck(probe, opts.poll, opts.procRoot ?? '/proc'),
    tmuxCheck(opts.env, oscChannelInUse(opts.env)),
    terminalCheck(opts.terminal, opts.env),
  ];
  return { ok: checks.every((c) => c.status !== 'broken'), omcTop: opts.version, checks };
}
