/**
 * Claude Code's `.claude/settings.local.json`, read and replaced by `omc-top hooks` without losing anyone else's
 * byte or rule:
 * - read as the exact bytes (a UTF-8 byte-order mark kept: Claude Code 2.1.332 reads a file that has one), and a
 *   file that is not valid UTF-8 refused: re-encoding it would change bytes omc-top cannot read;
 * - replaced only if it is still the file that was read (device, inode, size, times, checked right before the
 *   rename), then read back: Claude Code rewrites this file itself ("always allow"), and a rewrite from what it
 *   read before ours lands after ours. Either way the change is worked out again from the file as it is now,
 *   a bounded number of times. Lock-free: Claude Code takes no lock omc-top could share.
 */
import type fs from 'node:fs';
import {
  atomicWriteSync,
  describeWriteError,
  firstInvalidUtf8,
  readBytesSync,
  readTextSync,
  unlinkUnder,
} from '../../io/safe-fs/index.js';
import { emptyTextWords } from '../../io/empty-file-words.js';
import { cleanLine } from '../../io/sanitize.js';
import { sameStamp } from '../../io/file-stamp.js';
import { LOCAL_SETTINGS_REL } from '../claude/settings-sources.js';

export const SETTINGS_REL = LOCAL_SETTINGS_REL;
const MAX_BYTES = 4 * 1024 * 1024;
const BOM = '\uFEFF';
/** How many times a change is worked out again after another writer's change came between (then refused). */
export const SETTINGS_ATTEMPTS = 5;

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * What identifies the file that was read: a replace or a rewrite in place changes at least one (the device and the
 * change time compared when the read learnt them).
 */
interface Identity {
  dev: number | undefined;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number | undefined;
}

export interface SettingsRead {
  ok: true;
  /** The whole file as it is on disk (a leading U+FEFF when it has a byte-order mark); null: no file. */
  text: string | null;
  doc: Obj;
  /** Permission bits, kept when the file is rewritten (null: no file yet, a new one gets 0600). */
  mode: number | null;
  bom: boolean;
  id: Identity | null;
}
/** `code`: the exit status a refusal is said with (2: the file is input omc-top will not rewrite as it is). */
export type SettingsRefusal = { ok: false; message: string; code: 1 | 2 };

/** JSON as install writes it, with the byte-order mark the file had. */
export const renderSettings = (doc: Obj, bom: boolean) => `${bom ? BOM : ''}${JSON.stringify(doc, null, 2)}\n`;

/** The settings file read inside the project: a refusal names the project directory, not the .omc root. */
export function loadSettings(projectDir: string, rel = SETTINGS_REL): SettingsRead | SettingsRefusal {
  const r = readTextSync(projectDir, rel, MAX_BYTES, { rootLabel: 'the project directory' });
  if (!r.ok) {
    if (r.code === 'missing') return { ok: true, text: null, doc: {}, mode: null, bom: false, id: null };
    return { ok: false, code: 1, message: `${rel}: ${r.message}` };
  }
  if (r.invalidUtf8) return { ok: false, code: 2, message: notUtf8(projectDir, rel) };
  // Empty said as empty, in the words doctor's OMC line has for the same file (not "not valid JSON").
  if (r.text.trim() === '')
    return { ok: false, code: 1, message: `${rel} ${emptyTextWords(r.bytes)}: fix it first (nothing was changed)` };
  let v: unknown;
  try {
    v = JSON.parse(r.text);
  } catch {
    return { ok: false, code: 1, message: `${rel} is not valid JSON: fix it first (nothing was changed)` };
  }
  if (!isObj(v)) return { ok: false, code: 1, message: `${rel} is not a JSON object (nothing was changed)` };
  const id = { dev: r.dev, ino: r.ino, size: r.bytes, mtimeMs: r.mtimeMs, ctimeMs: r.ctimeMs };
  return { ok: true, text: (r.bom ? BOM : '') + r.text, doc: v, mode: r.mode, bom: r.bom, id };
}

/** Where the file stops being UTF-8, said so the user can find and fix it. */
function notUtf8(projectDir: string, rel: string): string {
  const b = readBytesSync(projectDir, rel, MAX_BYTES);
  const at = b.ok ? firstInvalidUtf8(b.bytes) : -1;
  const where =
    b.ok && at >= 0
      ? ` (byte 0x${(b.bytes[at] as number).toString(16).padStart(2, '0')} at offset ${at}, line ${b.bytes.subarray(0, at).filter((c) => c === 0x0a).length + 1})`
      : '';
  return `${rel} is not valid UTF-8${where}: writing the hook would change bytes omc-top cannot read; save it as UTF-8 first (nothing was changed)`;
}

/** What a change does to the file read: nothing (`stop`, with what to say), write these bytes, or remove it. */
export type SettingsStep<T> =
  { kind: 'stop'; result: T } | { kind: 'write'; text: string; result: T } | { kind: 'unlink'; result: T };

export type SettingsOutcome<T> =
  | {
      ok: true;
      result: T;
      /** The step taken, from the file as it was read (`read`) in the attempt that held. */
      step: SettingsStep<T>;
      read: SettingsRead;
      /** The file is exactly what was written (false: another writer changed it since, keeping the change). */
      exact: boolean;
      attempts: number;
    }
  | SettingsRefusal;

/** Points a test runs another writer at (the window between the read and the rename, and right after it). */
export interface RaceProbe {
  beforeReplace?(): void;
  afterReplace?(): void;
}

/**
 * Works out a change from the file as read (`plan`), makes it only over that very file, then reads the file back:
 * it holds when the file is what was written, or when `holds` says a later writer kept the change. Otherwise the
 * change is worked out again from the file as it is now.
 */
export function changeSettings<T>(
  projectDir: string,
  plan: (read: SettingsRead) => SettingsStep<T> | SettingsRefusal,
  holds: (now: SettingsRead) => boolean,
  race: RaceProbe = {},
  /** The settings file under `projectDir` (omc-top's own is the local one; an older omc-top's entry elsewhere). */
  rel = SETTINGS_REL,
): SettingsOutcome<T> {
  for (let attempt = 1; attempt <= SETTINGS_ATTEMPTS; attempt++) {
    const read = loadSettings(projectDir, rel);
    if (!read.ok) return read;
    const step = plan(read);
    if ('ok' in step) return step;
    if (step.kind === 'stop') return { ok: true, result: step.result, step, read, exact: true, attempts: attempt };
    race.beforeReplace?.();
    const unchanged = (now: fs.Stats | null) => sameStamp(now, read.id);
    let replaced: boolean;
    try {
      replaced =
        step.kind === 'write'
          ? atomicWriteSync(projectDir, rel, step.text, {
              // A project's .claude is Claude Code's and the project's, not omc-top's: made as any project
              // directory is (umask), the file itself 0600 when new.
              ...(read.id === null ? { mkdir: 'shared' as const } : {}),
              ...(read.mode === null ? {} : { mode: read.mode }),
              commit: unchanged,
            })
          : unlinkUnder(projectDir, rel, unchanged);
    } catch (e) {
      return { ok: false, code: 1, message: `could not write ${rel}: ${cleanLine(describeWriteError(e))}` };
    }
    if (!replaced) continue; // another writer replaced the file since it was read: nothing was written over
    race.afterReplace?.();
    const now = loadSettings(projectDir, rel);
    if (!now.ok)
      return {
        ok: false,
        code: 1,
        message: `${rel} was rewritten by another program right after omc-top's change, and now: ${now.message}`,
      };
    const exact = now.text === (step.kind === 'write' ? step.text : null);
    if (exact || holds(now)) return { ok: true, result: step.result, step, read, exact, attempts: attempt };
    // A writer that read the file before our rename replaced it after: its change stays, ours is made again.
  }
  return {
    ok: false,
    code: 1,
    message: `${rel} kept being rewritten by another program (Claude Code?) while omc-top changed it (${SETTINGS_ATTEMPTS} tries): it is as that program last wrote it; run the command again`,
  };
}
