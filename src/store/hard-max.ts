/**
 * OMC's hard iteration limit for ralph, as its Stop hook finds it (OMC 5.5.0 `scripts/persistent-mode.mjs`, and
 * 4.15.10's, per the contract): when ralph is at its max, the hook extends the max by 10 unless a hard max is
 * set and the max has reached it; then it blocks once more and writes `active: false`.
 *
 * Where the hook looks, each time it runs, in this order:
 *  1. `<the hook's cwd>/.claude/omc.jsonc` (Claude's cwd: the session's directory);
 *  2. `<HOME>/.config/claude-omc/config.jsonc`.
 * The first file that exists, parses and has `security.hardMaxIterations` set (any value but undefined) decides;
 * a file that does not parse (or cannot be read) is passed by. A number is the hard max; anything else (a string,
 * null) is no number, and then `OMC_SECURITY=strict` (exactly that, in the hook's environment: the session's own
 * Claude's, whose hooks run its Stop) gives 200, else there is none. A hard max of 0 or less is none.
 *
 * The files are JSON with comments as OMC strips them: first every `//` to the end of its line, then every
 * `/* … *\/`, with no regard for strings (a `//` inside a string value breaks the file for OMC too).
 *
 * omc-top reads them through the safe read path (a link followed, as the hook follows it), keeps each by its stat
 * and looks again when asked (`refresh`, on the store's 5 s look; a full scan). A file OMC would pass by is a
 * problem line that says so; a file omc-top may not read here (permission, size, I/O) leaves the hard max
 * unknown, said in the verdict's words and a problem line.
 */
import path from 'node:path';
import { followedStampKey } from '../io/file-stamp.js';
import { isObjectLike } from '../io/json.js';
import { readTextSync } from '../io/safe-fs/index.js';
import { cleanLine } from '../io/sanitize.js';
import { shownPath } from '../io/shown-path.js';
import type { Problem } from './types.js';
import type { HardMax } from './verdict/types.js';

/** The hook's default hard max under `OMC_SECURITY=strict`. */
export const STRICT_HARD_MAX = 200;
const PROJECT_REL = '.claude/omc.jsonc';
const USER_REL = '.config/claude-omc/config.jsonc';
const CONFIG_MAX_BYTES = 1024 * 1024;

/** No hard max: what the hook does with no file setting it and no `OMC_SECURITY=strict`. */
export const NO_HARD_MAX: HardMax = Object.freeze({ value: 0, source: 'no hard max set', unknown: null });

/** OMC's JSONC: each `//` to its line's end removed, then each `/* … *\/` (strings are not looked at). */
export function stripOmcJsonc(text: string): string {
  let noLine = '';
  for (let i = 0; ;) {
    const a = text.indexOf('//', i);
    if (a < 0) {
      noLine += text.slice(i);
      break;
    }
    noLine += text.slice(i, a);
    let end = a + 2;
    while (end < text.length && !LINE_END.has(text.charCodeAt(end))) end += 1;
    i = end;
  }
  let out = '';
  for (let i = 0; ;) {
    const a = noLine.indexOf('/*', i);
    const b = a < 0 ? -1 : noLine.indexOf('*/', a + 2);
    if (b < 0) {
      out += noLine.slice(i);
      break;
    }
    out += noLine.slice(i, a);
    i = b + 2;
  }
  return out;
}
/** The characters that end a line for a JavaScript regular expression's `.` and `$`. */
const LINE_END = new Set([0x0a, 0x0d, 0x2028, 0x2029]);

/** One config file as the hook reads it. */
type FileLook =
  | { kind: 'absent' }
  /** OMC passes it by: it does not parse (or is not a file). */
  | { kind: 'passed'; why: string }
  /** It parses; `set` when `security.hardMaxIterations` is there (its value, whatever it is). */
  | { kind: 'parsed'; set: boolean; value: unknown }
  /** omc-top could not read it here (OMC's hook may). */
  | { kind: 'unread'; why: string };

function lookAt(root: string, rel: string): FileLook {
  const r = readTextSync(root, rel, CONFIG_MAX_BYTES, { followLink: true, rootLabel: 'its directory' });
  if (!r.ok) {
    if (r.code === 'missing') return { kind: 'absent' };
    // A directory where the file would be: the hook's read throws and it goes on to the next file.
    if (r.code === 'not-a-file') return { kind: 'passed', why: r.message };
    return { kind: 'unread', why: r.message };
  }
  // The hook reads the text as it is: a byte-order mark stays, and JSON.parse refuses it.
  if (r.bom) return { kind: 'passed', why: 'it starts with a byte-order mark, which JSON.parse refuses' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripOmcJsonc(r.text));
  } catch (e) {
    const detail = cleanLine((e as Error).message).slice(0, 120);
    return { kind: 'passed', why: `it does not parse once its comments are stripped (${detail})` };
  }
  const security: unknown = isObjectLike(parsed) ? parsed.security : undefined;
  // `parsed?.security && parsed.security[key] !== undefined`: a truthy security section of any type.
  if (!security) return { kind: 'parsed', set: false, value: undefined };
  const value = (security as Record<string, unknown>).hardMaxIterations;
  return value === undefined ? { kind: 'parsed', set: false, value } : { kind: 'parsed', set: true, value };
}

interface Kept {
  stamp: string | null;
  look: FileLook;
}

/** The Claude process whose Stop hook runs (the one joined to the session); null: none of the session's runs. */
export interface HookProcess {
  pid: number;
  procStart: string | null;
  startedAt: number | null;
}

/** `OMC_SECURITY` as one process's hooks get it; `unknown`: why that cannot be told here. */
export interface SecuritySetting {
  value: string | null;
  source: string;
  unknown: string | null;
}

export interface HardMaxOptions {
  /**
   * `OMC_SECURITY` as the hooks of `proc` get it (HookEnv.forProcess: Claude's settings, else that process's own
   * environment; unknown when there is no process or its environment cannot be read, never another Claude's).
   */
  security: (proc: HookProcess | null) => SecuritySetting;
  /** The user's home, whose `.config/claude-omc/config.jsonc` the hook reads; null: not read. */
  home: string | null;
}

/** The hard max OMC's Stop hook applies, per directory the hook runs in. */
export class HardMaxConfig {
  private readonly files = new Map<string, Kept>();
  private readonly memo = new Map<string, HardMax>();
  /** What each process's hooks got at its last judging, by process: `refresh` asks again and compares. */
  private readonly asked = new Map<string, { proc: HookProcess | null; key: string }>();
  /** The problem lines of the files as last read (one list while nothing moves: the store compares lists). */
  private lines: Problem[] | null = null;

  constructor(private readonly opts: HardMaxOptions) {}

  /**
   * The hard max for the Stop hook of `proc` (the session's own Claude; null: none runs) started in `cwd`, from what
   * was last read (the first call for a file reads it).
   */
  of(cwd: string, proc: HookProcess | null): HardMax {
    const sec = this.opts.security(proc);
    const key = securityKey(sec);
    const pk = processKey(proc);
    if (this.asked.get(pk)?.key !== key) {
      // Above the Claudes one machine runs (see HookEnv's ENVIRON_KEPT): cleared, every process is asked anew.
      if (this.asked.size > 2048) this.asked.clear();
      this.asked.set(pk, { proc, key });
    }
    const memoKey = `${cwd}\u0000${key}`;
    let v = this.memo.get(memoKey);
    if (v === undefined) {
      if (this.memo.size > 256) this.memo.clear();
      this.memo.set(memoKey, (v = this.judge(cwd, sec)));
    }
    return v;
  }

  /** Each file read again whose stat moved, and OMC_SECURITY looked at again: true when anything changed. */
  refresh(): boolean {
    let changed = false;
    for (const [file, kept] of this.files) {
      const stamp = followedStampKey(file);
      if (stamp === kept.stamp) continue;
      this.files.set(file, { stamp, look: lookAt(path.dirname(file), path.basename(file)) });
      changed = true;
    }
    // A process's environment cannot change, but the settings that beat it can (and the process may be read now).
    for (const { proc, key } of this.asked.values())
      if (securityKey(this.opts.security(proc)) !== key) {
        changed = true;
        break;
      }
    if (changed) {
      this.asked.clear();
      this.memo.clear();
      this.lines = null;
    }
    return changed;
  }

  /** The files read that OMC's hook passes by, or that omc-top could not read, as problem lines. */
  problems(): readonly Problem[] {
    if (this.lines !== null) return this.lines;
    const out: Problem[] = (this.lines = []);
    for (const [file, { look }] of this.files) {
      const where = this.words(file);
      if (look.kind === 'passed')
        out.push({
          path: where,
          message: `OMC's Stop hook cannot use ${where}: ${look.why}; it goes on to the next place (its hard iteration limit comes from there, or OMC_SECURITY)`,
          severity: 'warning',
        });
      else if (look.kind === 'unread')
        out.push({
          path: where,
          message: `${where} could not be read here (${look.why}): OMC's hard iteration limit for ralph is not known`,
          severity: 'warning',
        });
      else if (look.kind === 'parsed' && look.set && typeof look.value !== 'number')
        out.push({
          path: where,
          message: `security.hardMaxIterations in ${where} is ${describe(look.value)}, not a number: OMC's Stop hook sets no hard limit from it (200 with OMC_SECURITY=strict) and does not look further`,
          severity: 'warning',
        });
    }
    return out;
  }

  private look(root: string, rel: string): { file: string; look: FileLook } {
    const file = path.join(root, rel);
    let kept = this.files.get(file);
    if (kept === undefined) {
      if (this.files.size > 64) this.files.clear();
      this.lines = null;
      const stamp = followedStampKey(file);
      this.files.set(file, (kept = { stamp, look: lookAt(root, rel) }));
    }
    return { file, look: kept.look };
  }

  private judge(cwd: string, sec: SecuritySetting): HardMax {
    const places: { root: string; rel: string }[] = [{ root: cwd, rel: PROJECT_REL }];
    if (this.opts.home !== null) places.push({ root: this.opts.home, rel: USER_REL });
    let unknown: string | null = null;
    let found: { value: unknown; file: string } | null = null;
    for (const p of places) {
      const { file, look } = this.look(p.root, p.rel);
      if (look.kind === 'unread') unknown ??= `${this.words(file)} could not be read here (${look.why})`;
      if (look.kind === 'parsed' && look.set) {
        found = { value: look.value, file };
        break;
      }
    }
    const strict = sec.value === 'strict';
    if (found && typeof found.value === 'number')
      return { value: found.value, source: `security.hardMaxIterations in ${this.words(found.file)}`, unknown };
    if (strict)
      return {
        value: STRICT_HARD_MAX,
        source: `OMC_SECURITY=strict from ${sec.source}`,
        unknown,
      };
    // OMC_SECURITY not known (no Claude of the session runs, or its environment is not readable): strict would
    // give 200, which decides only for a max that has reached it.
    const envUnknown =
      sec.unknown === null
        ? null
        : {
            at: STRICT_HARD_MAX,
            words: `${sec.unknown} (with OMC_SECURITY=strict the hard max is ${String(STRICT_HARD_MAX)})`,
          };
    if (unknown === null && envUnknown === null) return NO_HARD_MAX;
    return { ...NO_HARD_MAX, unknown, ...(envUnknown ? { envUnknown } : {}) };
  }

  /** A config file as the user knows it: `~/…` under the home directory, else its path. */
  private words(file: string): string {
    const home = this.opts.home;
    if (home !== null) {
      const rel = path.relative(home, file);
      if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) return `~/${shownPath(rel)}`;
    }
    return shownPath(file);
  }
}

const securityKey = (s: SecuritySetting): string => `${s.value ?? ''}\u0000${s.source}\u0000${s.unknown ?? ''}`;
const processKey = (p: HookProcess | null): string => (p === null ? '' : `${String(p.pid)}:${p.procStart ?? ''}`);

function describe(v: unknown): string {
  if (typeof v === 'string') return `the text ${JSON.stringify(v.slice(0, 40))}`;
  if (v === null) return 'null';
  return Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : String(v);
}
