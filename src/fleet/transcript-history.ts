/**
 * The fleet's history from Claude Code's transcripts: the projects where a Claude ran in the last KNOWN_MAX_AGE_MS
 * although no omc-top watched them and their Claude exited cleanly (a clean exit removes its registry entry, so
 * discover.ts's `exited` source never sees it). A loop such a Claude left running in `.omc` is an orphan the fleet
 * should show, as it shows one whose Claude was killed.
 *
 * Claude keeps each project's transcripts in `<config>/projects/<cwd with every non-alphanumeric character as "-">/`,
 * a name that cannot be turned back into the path (`/a-b` and `/a/b` share it). So the cwd is taken from inside a
 * transcript (the `cwd` of its first line that has one) and kept only when its own name is that folder's: a file
 * moved or written there by hand names no other directory. The folder's own time dates it (a new session's file, or
 * a subagent's directory, is made in it). Bounded: the newest KNOWN_MAX folders, one transcript's first
 * HEAD_BYTES each; read once, when the fleet starts. Every read through the safe read path, refused symlinks included.
 */
import { listDirSync, readRangeSync, statSync } from '../io/safe-fs/index.js';
import { CLAUDE_DIR_READ, encodeProjectDir } from '../store/claude/config-dir.js';
import { KNOWN_MAX, KNOWN_MAX_AGE_MS } from './known-projects.js';

/** Enough for the first lines of a transcript; its large lines (a request's shape, 38–57 KB) come later. */
export const HEAD_BYTES = 256 * 1024;
/** Transcripts looked at per folder to pick its newest one. */
const FILES_PER_FOLDER = 200;

export interface TranscriptCwd {
  cwd: string;
  /** When a session last started there (the folder's modification time), epoch ms. */
  at: number;
}

export function transcriptCwds(configDir: string, now: number): { cwds: TranscriptCwd[]; problem: string | null } {
  const list = listDirSync(configDir, 'projects', CLAUDE_DIR_READ);
  if (!list.ok) return { cwds: [], problem: list.code === 'missing' ? null : `projects: ${list.message}` };
  const folders: Array<{ name: string; at: number }> = [];
  for (const e of list.entries) {
    if (e.kind !== 'dir' || e.invalidName) continue;
    const st = statSync(configDir, `projects/${e.name}`);
    if (st && st.isDirectory() && st.mtimeMs >= now - KNOWN_MAX_AGE_MS) folders.push({ name: e.name, at: st.mtimeMs });
  }
  folders.sort((a, b) => b.at - a.at || (a.name < b.name ? -1 : 1));
  const cwds: TranscriptCwd[] = [];
  for (const f of folders.slice(0, KNOWN_MAX)) {
    const cwd = folderCwd(configDir, f.name);
    if (cwd !== null) cwds.push({ cwd, at: f.at });
  }
  return { cwds, problem: null };
}

/** The cwd a folder's newest transcript names, when that cwd's folder is this one; else null. */
function folderCwd(configDir: string, folder: string): string | null {
  const list = listDirSync(configDir, `projects/${folder}`, CLAUDE_DIR_READ);
  if (!list.ok) return null;
  let newest: { name: string; at: number } | null = null;
  for (const e of list.entries.slice(0, FILES_PER_FOLDER)) {
    if (e.kind !== 'file' || e.invalidName || !e.name.endsWith('.jsonl')) continue;
    const st = statSync(configDir, `projects/${folder}/${e.name}`);
    if (st && st.isFile() && (newest === null || st.mtimeMs > newest.at)) newest = { name: e.name, at: st.mtimeMs };
  }
  if (newest === null) return null;
  const head = readRangeSync(configDir, `projects/${folder}/${newest.name}`, () => 0, HEAD_BYTES);
  if (!head.ok) return null;
  const cwd = firstCwd(head.bytes.toString('utf8'));
  return cwd !== null && cwd.startsWith('/') && encodeProjectDir(cwd) === folder ? cwd : null;
}

/** The `cwd` of the first whole JSON line that has one as a string (a line cut at the read's end is left). */
export function firstCwd(text: string): string | null {
  let at = 0;
  for (;;) {
    const nl = text.indexOf('\n', at);
    if (nl === -1) return null;
    const line = text.slice(at, nl);
    at = nl + 1;
    if (!line.includes('"cwd"')) continue;
    try {
      const v: unknown = JSON.parse(line);
      const cwd = v !== null && typeof v === 'object' ? (v as { cwd?: unknown }).cwd : undefined;
      if (typeof cwd === 'string' && cwd !== '' && !cwd.includes('\u0000')) return cwd;
    } catch {
      // Not JSON: the next line.
    }
  }
}
