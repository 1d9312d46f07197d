/**
 * Claude Code's files as the CLI (2.1.332) and the demo write them, for pane
 * tests: a registry entry under `<config>/sessions/<pid>.json` and a transcript
 * under `<config>/projects/<cwd>/<session>.jsonl`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { processStartIdentity } from '../../src/io/process-start.js';
import { transcriptRel } from '../../src/store/claude/config-dir.js';
import { ownPidDomain } from '../../src/store/claude/process-status.js';

/** A pid no process can have (above the kernel's pid_max ceiling is refused; this is the ceiling's last). */
export const DEAD_PID = 4194303;

export interface RegistryFields {
  status: 'busy' | 'idle' | 'waiting';
  cwd: string;
  /** Default: the live process's own start time (so it is judged "the same process"). */
  procStart?: string | null;
  waitingFor?: string;
  tmux?: string;
  name?: string;
  statusUpdatedAt?: number;
  /** Default: a minute ago. */
  startedAt?: number;
}

export function writeRegistry(cfg: string, pid: number, sessionId: string, f: RegistryFields): void {
  fs.mkdirSync(path.join(cfg, 'sessions'), { recursive: true });
  const live = processStartIdentity(pid);
  fs.writeFileSync(
    path.join(cfg, 'sessions', `${pid}.json`),
    JSON.stringify({
      pid,
      sessionId,
      cwd: f.cwd,
      procStart: f.procStart !== undefined ? f.procStart : typeof live === 'string' ? live : '5',
      pidDomain: ownPidDomain(),
      version: '2.1.332',
      kind: 'interactive',
      entrypoint: 'cli',
      startedAt: f.startedAt ?? Date.now() - 60_000,
      status: f.status,
      statusUpdatedAt: f.statusUpdatedAt ?? Date.now(),
      ...(f.waitingFor ? { waitingFor: f.waitingFor } : {}),
      ...(f.tmux ? { tmux: f.tmux } : {}),
      ...(f.name ? { name: f.name } : {}),
    }),
  );
}

/**
 * A registry entry of six fields only (pid, session, cwd, the process's start time read now, status, kind) for `pid`
 * under `<cfg>/sessions`, which must exist (writeRegistry writes the CLI's full entry); returns the file.
 */
export function writeBareRegistry(cfg: string, pid: number, sessionId: string, cwd: string, status: string): string {
  const file = path.join(cfg, 'sessions', `${pid}.json`);
  const procStart = processStartIdentity(pid);
  fs.writeFileSync(file, JSON.stringify({ pid, sessionId, cwd, procStart, status, kind: 'interactive' }));
  return file;
}

export function writeTranscript(cfg: string, cwd: string, sessionId: string, lines: readonly string[]): string {
  const file = path.join(cfg, transcriptRel(cwd, sessionId));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}
