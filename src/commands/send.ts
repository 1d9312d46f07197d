/**
 * `omc-top send <session> TEXT [--pane] [--wait SECONDS]`: a note to a running Claude session through its inbox
 * socket (store/claude/note.ts); `--pane` types it into the session's tmux pane instead (only where asked, and
 * only when the pane's prompt line is empty). "sent" at once; with --wait, "delivered ✓" once the session's
 * transcript shows the note, else exit 3.
 */
import { fitHelp } from './help-width.js';
import { findClaudeConfigDir, transcriptRel } from '../store/claude/config-dir.js';
import type { ProcessView } from '../store/claude/model.js';
import { cleanNote, planNote, sendNote } from '../store/claude/note.js';
import { planPaneTyping, typeIntoPane } from '../store/claude/pane-typing.js';
import { judgeProcess, systemProbe } from '../store/claude/process-status.js';
import { readRegistry, type RegistryEntry } from '../store/claude/registry.js';
import { TranscriptReader } from '../store/claude/transcript-reader.js';
import { NOTE_FROM } from '../store/claude/note.js';
import { chooseProcess } from '../store/claude/choice.js';
import { answeredPid } from '../store/claude/join-words.js';
import { cleanLine } from '../io/sanitize.js';
import { parseArgs, UsageError } from './args.js';
import { processSink } from '../io/output.js';

export const SEND_USAGE = `Usage: omc-top send <session> TEXT [--pane] [--wait SECONDS]

A note to a running Claude Code session (2.1.224 or later), through its own inbox
socket: it arrives between tool calls, or starts a turn when the session is idle.
  <session>      its session id (or a unique beginning of it, or its Claude name)
  --pane         type it into the session's tmux pane instead (refused when a draft
                 is typed there); the transcript then shows it as a typed prompt
  --wait SECONDS wait until the transcript shows the note (exit 3 when it does not)
Exit: 0 sent (and, with --wait, delivered), 1 not sent, 2 usage, 3 not seen in time.`;

/** The flags this command takes: each is in `--help` (test/unit/help-flags.test.ts). */
export const FLAGS = { pane: 'bool', wait: 'value', help: 'bool' } as const;

export interface SendIo {
  out(s: string): void;
  err(s: string): void;
  env: NodeJS.ProcessEnv;
  sleep?(ms: number): Promise<void>;
}

const defaultIo = (): SendIo => ({
  ...processSink,
  env: process.env,
});

function viewOf(e: RegistryEntry): ProcessView {
  const v = judgeProcess(e, systemProbe());
  return {
    pid: e.pid,
    sessionId: e.sessionId,
    status: v.status,
    reason: v.reason,
    since: e.statusUpdatedAt,
    entrypoint: e.entrypoint,
    version: e.version,
    kind: e.kind,
    name: e.name,
    tmux: e.tmux,
    // The registry's text: send needs the pane, not its name.
    tmuxWhere: e.tmux,
    messagingSocketPath: e.messagingSocketPath,
    cwd: e.cwd,
    waitingFor: e.waitingFor,
    procStart: e.procStart,
    startedAt: e.startedAt,
    registryRel: e.rel,
  };
}

/**
 * The registered process for a session id, a unique id prefix, or a Claude name: of the session's processes, the one
 * every surface of the monitor shows (store/claude/choice.ts), with the others that run it (`alsoPids`).
 */
export function findSession(entries: readonly RegistryEntry[], want: string): ProcessView | string {
  const views = entries.map(viewOf);
  const exact = views.filter((v) => v.sessionId === want);
  const pick = (vs: ProcessView[]): ProcessView => {
    const mine = vs.filter((v) => v.sessionId === vs[0]?.sessionId);
    const { chosen, others } = chooseProcess(mine);
    return { ...(chosen as ProcessView), alsoPids: others };
  };
  if (exact.length > 0) return pick(exact);
  const named = views.filter((v) => v.name === want);
  if (named.length > 0) {
    const ids = new Set(named.map((v) => v.sessionId));
    if (ids.size > 1) return `"${cleanLine(want)}" names ${ids.size} sessions: give the session id`;
    return pick(named);
  }
  if (want.length >= 4) {
    const pre = views.filter((v) => v.sessionId.startsWith(want));
    const ids = new Set(pre.map((v) => v.sessionId));
    if (ids.size === 1) return pick(pre);
    if (ids.size > 1) return `"${cleanLine(want)}" is the beginning of ${ids.size} session ids: give more of it`;
  }
  // A short prefix would match by chance: ids are taken from their first 4 characters on (as the rows show 8).
  if (want.length < 4 && views.some((v) => v.sessionId.startsWith(want)))
    return `"${cleanLine(want)}" is too short to name a session: give at least 4 characters of its id (or its name)`;
  return `no registered Claude session is "${cleanLine(want)}"`;
}

export async function runSendCommand(argv: readonly string[], io: SendIo = defaultIo()): Promise<number> {
  const args = parseArgs(argv, FLAGS);
  if (args.flags.has('help')) {
    io.out(fitHelp(SEND_USAGE) + '\n');
    return 0;
  }
  const [who, ...words] = args.positionals;
  if (!who || words.length === 0) throw new UsageError('send needs a session and the text of the note');
  const wait = args.flags.has('wait') ? Number(args.flags.get('wait')) : 0;
  if (!Number.isFinite(wait) || wait < 0 || wait > 3600)
    throw new UsageError('--wait needs a number of seconds (0-3600)');
  const text = cleanNote(words.join(' '));
  if (text === null) throw new UsageError('the note is empty');
  const config = findClaudeConfigDir(io.env);
  const found = findSession(readRegistry(config.dir).entries, who);
  if (typeof found === 'string') {
    io.err(`omc-top send: ${found}\n`);
    return 1;
  }
  const label = `${found.name ? `${found.name} ` : ''}(session ${found.sessionId.slice(0, 8)}, ${answeredPid(found)})`;
  if (args.flags.has('pane')) {
    const r = typeIntoPane(planPaneTyping(found, io.env), text);
    (r.ok ? io.out : io.err)(`omc-top send: ${cleanLine(r.message)}\n`);
    return r.ok ? 0 : 1;
  }
  const plan = planNote(config.dir, found);
  if (!plan.ok) {
    io.err(
      `omc-top send: not sent to ${label}: ${plan.reason}${plan.paneFallback ? '\n  --pane types it into its tmux pane instead' : ''}\n`,
    );
    return 1;
  }
  const sentAt = Date.now();
  const r = await sendNote(plan, text);
  if (!r.ok) {
    io.err(`omc-top send: ${cleanLine(r.message)}\n`);
    return 1;
  }
  io.out(`omc-top send: sent to ${label}; the CLI does not acknowledge, its transcript will show the note\n`);
  if (wait === 0 || !found.cwd) return 0;
  const reader = new TranscriptReader(config.dir, transcriptRel(found.cwd, found.sessionId));
  const end = sentAt + wait * 1000;
  const sleep = io.sleep ?? ((ms: number) => new Promise((res) => setTimeout(res, ms)));
  for (;;) {
    reader.refresh();
    const hit = reader
      .state()
      .facts.peerNotes.find(
        (n) => n.from === NOTE_FROM && n.text.includes(text) && (n.atMs ?? sentAt) >= sentAt - 5_000,
      );
    if (hit) {
      io.out(
        `omc-top send: delivered ✓ (the transcript shows it${hit.atMs ? ` at ${new Date(hit.atMs).toISOString()}` : ''})\n`,
      );
      return 0;
    }
    if (Date.now() > end) {
      io.err(`omc-top send: sent, but the transcript did not show it within ${wait} s\n`);
      return 3;
    }
    await sleep(250);
  }
}
