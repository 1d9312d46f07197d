/**
 * `omc-top status [--tmux] [--format F]`: one short line for tmux
 * `status-right` (or any prompt): running loops with progress and the
 * needs-you count, the same count as the monitor's header. While a monitor
 * runs on this root its status cache answers (status-fast.ts: one small file,
 * no tree read); otherwise one read of the sessions, the teams and Claude
 * Code's registry, no watcher, no write, so tmux can call it every few seconds.
 * The bin loads this from its own small bundle (dist/omc-top-status.mjs): no
 * React, no file watcher.
 *
 * Exit codes: 0 printed; 2 usage or no .omc found (then the line is empty,
 * so a status bar shows nothing rather than an error).
 */
import path from 'node:path';
import { AckFile } from '../feeds/attention/acks.js';
import { QuotaDomain } from '../store/cost/quota-domain.js';
import { planHoldOf } from '../store/cost/plan-hold.js';
import { CancelRecordFile } from '../store/cancel/cancel-records.js';
import { attentionOf } from '../feeds/attention/view.js';
import { loopValues, type StatusValues } from '../feeds/status-line.js';
import { homeDir } from '../io/home-dir.js';
import { ownStateDir } from '../io/state-dir.js';
import { stateDirMark } from '../store/state-dir/health.js';
import { findClaudeConfigDir } from '../store/claude/config-dir.js';
import { envWithConfig, projectClaudeConfig, type ProjectClaudeConfig } from '../store/claude/project-config.js';
import { ClaudeDomain } from '../store/claude/domain.js';
import { withExitsFromTails } from '../store/claude/exit-tail.js';
import { detectOmcInstall, type OmcInstall, type RulesVersion } from '../store/omc-install.js';
import { resolveRootAndOmc } from '../store/omc-root.js';
import { SessionsDomain } from '../store/sessions/domain.js';
import { TeamsDomain } from '../store/teams/domain.js';
import { PermissionsDomain } from '../store/permissions/domain.js';
import { GraphDomain } from '../store/graph/domain.js';
import { stateDir as permissionsStateDir } from '../store/permissions/protocol.js';
import type { RootRule } from '../store/root.js';
import { UsageError } from './args.js';
import { fastPlace, parseStatusArgs, placeOf, noteNoOmcState, printStatus, type StatusIo } from './status-fast.js';
import { processSink } from '../io/output.js';

export { STATUS_USAGE, type StatusIo } from './status-fast.js';

const defaultIo: StatusIo = { ...processSink, cwd: process.cwd(), env: process.env };

/**
 * The status values computed from the files: the attention model over one read of what it needs (the
 * sessions, the teams, the registry), judged by `omc`'s Stop-hook rules (the OMC that runs the hooks, or
 * --omc-version's), as the monitor judges them. No tracker: a cancel that did not take is read from the record
 * every omc-top keeps of its cancels (store/cancel/cancel-records.ts) and the disk, as the monitor reads it.
 */
export function computeStatus(
  res: { root: string; projectDir?: string; rule: RootRule },
  project: string,
  env: NodeJS.ProcessEnv,
  omc: OmcInstall,
): StatusValues {
  const sessions = new SessionsDomain({
    root: res.root,
    rules: omc.rules as RulesVersion,
    projectDir: res.projectDir ?? null,
    // OMC's hooks fall back to a session's ~/.omc/state copy: its loop counts here as in the monitor and --json.
    home: homeDir(env),
  });
  const teams = new TeamsDomain({
    root: res.root,
    sessions,
    projectDir: res.projectDir ?? null,
    rootRule: res.rule,
  });
  // Only the registry: which Claude processes wait, idle or died. Transcripts say what is waited on, not whether.
  const claude = new ClaudeDomain({
    config: findClaudeConfigDir(env),
    sessions,
    projectDir: res.projectDir ?? null,
    live: false,
    transcripts: false,
    // A process whose hooks read another .omc does not carry this root's loops (store/hook-root.ts).
    hookRoot: {
      root: res.root,
      projectDir: res.projectDir ?? null,
      rule: res.rule,
      flavor: omc.assumed ? null : omc.book.rootFlavor,
      env,
    },
  });
  // The permission prompts a monitor can answer: "needs you" counts them as the monitor does (read only, no listener).
  const permissions = new PermissionsDomain({
    stateDir: permissionsStateDir(env),
    projectDir: res.projectDir ?? path.dirname(res.root),
    live: false,
    claudeEnv: env,
  });
  // OMC graph runs: a gate waiting on a decision needs you here as in the monitor (read once, no owner timer).
  const graph = new GraphDomain({ root: res.root, live: false });
  // OMC's usage cache and wait daemon: an idle loop the wait daemon will resume needs no hand (plan-hold.ts).
  const quota = new QuotaDomain({ env, live: false });
  try {
    sessions.scan();
    teams.scan();
    claude.scan();
    permissions.scan();
    graph.scan();
    quota.scan();
    const acks = new AckFile(ownStateDir(env), res.root);
    const view = attentionOf(
      {
        sessions: sessions.getSnapshot(),
        teams: teams.getSnapshot(),
        cancels: { version: 0, entries: new Map() },
        // Every omc-top's cancels on this root: a cancel that did not take counts here as in the monitor.
        cancelRecords: new CancelRecordFile(ownStateDir(env), res.root).getSnapshot(),
        problems: [],
        claude: withExitsFromTails(claude.getSnapshot(), sessions.getSnapshot(), res.projectDir ?? null),
        permissions: permissions.getSnapshot().requests,
        graph: graph.getSnapshot(),
        planHold: planHoldOf(quota.getSnapshot(), Date.now()),
      },
      (id) => acks.has(id),
    );
    return { ...loopValues(sessions.getSnapshot()), needs: view.count, project };
  } finally {
    for (const d of [quota, graph, permissions, claude, teams, sessions]) d.dispose?.();
  }
}

export function runStatusCommand(argv: readonly string[], io: StatusIo = defaultIo): number {
  const args = parseStatusArgs(argv, io);
  if (typeof args === 'number') return args;
  // Pinned to a release: the root and the book found together, as --json and watch find them.
  const pinned =
    args.omcVersion === undefined
      ? null
      : resolveRootAndOmc({ cwd: args.cwd, rootOverride: args.rootOverride, override: args.omcVersion, env: io.env });
  const place = pinned ? placeOf(pinned.res) : fastPlace(args, io);
  // The live monitor's cache first (the bin did this already when it ran unpinned; a direct call may not have).
  const cached = printStatus(args, place, io, pinned?.omc.rules);
  if (cached !== null) return cached;
  if (!place.res.exists) throw new UsageError('no .omc directory found');
  // The config directory the project's Claudes run with: their registry joins, their plugin judges.
  const projectDir = place.res.projectDir ?? null;
  const pc = pinned ? null : projectClaudeConfig(projectDir, io.env);
  const omc = pinned?.omc ?? detectOmcInstall({ env: io.env, projectDir, claudeConfig: pc ?? undefined });
  const claudeEnv = pinned?.claudeEnv ?? envWithConfig(io.env, (pc as ProjectClaudeConfig).config);
  const state = stateDirMark(ownStateDir(io.env));
  noteNoOmcState(place, io);
  io.out(args.render({ ...computeStatus(place.res, place.project, claudeEnv, omc), state }) + '\n');
  return 0;
}
