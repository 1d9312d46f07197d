/**
 * `omc-top status [--tmux] [--format F]`: one short line for tmux
 * `status-right` (or any prompt): running loops with progress and the
 * needs-you count, the same count as the monitor's header. While a monitor
 * runs on this root its status cache answers (status-fast.ts: one small file,
 * no tree read); otherwise one read of the sessions, teams and Claude Code's
 * registry, no watcher, no write, so tmux can call it every few seconds.
 *
 * Exit codes: 0 printed; 2 usage or no .omc found (then the line is empty,
 * so a status bar shows nothing rather than an error).
 */
import { AckFile } from '../feeds/attention/acks.js';
import { attentionOf } from '../feeds/attention/view.js';
import { loopValues, type StatusValues } from '../feeds/status-line.js';
import { ownStateDir } from '../io/state-dir.js';
import { OmcStore } from '../store/store.js';
import { UsageError } from './args.js';
import { parseStatusArgs, printStatus, type StatusIo } from './status-fast.js';

export { STATUS_USAGE, type StatusIo } from './status-fast.js';

const defaultIo: StatusIo = {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  cwd: process.cwd(),
  env: process.env,
};

/** The status values computed from the files: the attention model over one read (no monitor needed). */
export function computeStatus(root: string, projectDir: string | undefined, project: string, env: NodeJS.ProcessEnv) {
  const store = new OmcStore({
    root,
    readonly: true,
    watch: 'none',
    projectDir,
    // Only the registry: which Claude processes wait, idle or died. Transcripts name what is waited on, not whether.
    claude: { live: false, transcripts: false, env },
  });
  try {
    // Only what the line needs: sessions, then teams (it reads the sessions parse), then the registry.
    store.sessions.scan();
    store.teams.scan();
    store.claude.scan();
    const acks = new AckFile(ownStateDir(env), root);
    const view = attentionOf(
      {
        sessions: store.sessions.getSnapshot(),
        teams: store.teams.getSnapshot(),
        cancels: store.cancels.getSnapshot(),
        problems: [],
        claude: store.claude.getSnapshot(),
      },
      (id) => acks.has(id),
    );
    const values: StatusValues = { ...loopValues(store.sessions.getSnapshot()), needs: view.count, project };
    return values;
  } finally {
    void store.close();
  }
}

export function runStatusCommand(argv: readonly string[], io: StatusIo = defaultIo): number {
  const args = parseStatusArgs(argv, io);
  if (typeof args === 'number') return args;
  // The live monitor's cache first (the cheap path did this already when it ran; a direct call may not have).
  const cached = printStatus(args, io);
  if (cached !== null) return cached;
  const { res, project } = args;
  if (!res.exists) throw new UsageError('unreachable: printStatus handles a missing .omc');
  const values = computeStatus(res.root, res.projectDir, project, io.env);
  io.out(args.render(values) + '\n');
  return 0;
}
