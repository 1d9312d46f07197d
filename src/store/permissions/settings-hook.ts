/**
 * `omc-top hooks install` / `uninstall` / status: the one change omc-top makes to Claude Code's settings, and
 * only when asked. Install adds one PermissionRequest hook entry to the project's `.claude/settings.local.json`
 * (merged: every other hook, permission and key is kept as JSON.parse reads it, the file re-indented, a byte-order
 * mark kept); uninstall removes exactly that entry, and what install created around it (the file, the `hooks` key,
 * the event key). The entry is recognised by its marker argument; what the file looked like before is recorded in
 * omc-top's own state directory, so an uninstall with nothing else changed meanwhile gives back the very bytes that were there
 * (after a re-install over a file changed since, the bytes before are unknown and it removes only the entry: see
 * nextRecord). Writes go through the contained write path, atomically, keeping the file's permission bits,
 * refusing (not guessing) when the file is not UTF-8, not JSON or not the shape Claude Code reads, and never over
 * a change another writer made meanwhile (settings-file.ts). The file is the one Claude Code reads for the
 * directory it runs in (claude/settings-sources.ts), not OMC's state anchor.
 */
import { createHash } from 'node:crypto';
import { bytesOfPath } from '../../io/safe-fs/byte-paths.js';
import path from 'node:path';
import fs from 'node:fs';
import {
  ensureOwnDir,
  atomicWriteSync,
  readJsonSync,
  statSync,
  unlinkUnder,
  withDirUnder,
} from '../../io/safe-fs/index.js';
import { cleanLine } from '../../io/sanitize.js';
import { readAnswersConfig } from '../../config/answers-config.js';
import { realGit, type GitProbe } from '../../io/git.js';
import { shownPath } from '../../io/shown-path.js';
import {
  DISABLE_ALL_HOOKS,
  claudeProjectDir,
  hooksDisabledBy,
  settingsSources,
  sourcePath,
  unloadedSettings,
} from '../claude/settings-sources.js';
import { DEFAULT_WAIT_SECONDS, HOOK_TIMEOUT_MARGIN_SECONDS, PERMISSIONS_DIR } from './protocol.js';
import { olderEntries, olderPath, removeOlder } from './older-entries.js';
import {
  SETTINGS_REL,
  changeSettings,
  isObj,
  loadSettings,
  renderSettings,
  type Obj,
  type RaceProbe,
  type SettingsRead,
  type SettingsRefusal,
} from './settings-file.js';

export { SETTINGS_REL };
/** The argument that marks omc-top's entry (never a user's). */
export const HOOK_MARKER = '--omc-top-hook';
const EVENT = 'PermissionRequest';

/** POSIX shell quoting: Claude Code runs a hook command through the shell. */
export const shellQuote = (s: string) => (/^[A-Za-z0-9_/.,:=+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export interface HookPlan {
  projectDir: string;
  /** Absolute path of dist/omc-top-hook.mjs. */
  script: string;
  node: string;
  waitSeconds: number;
}

/** The words of a command as the shell splits it (plain words and single quotes: what hookCommand writes). */
export function shellWords(cmd: string): string[] {
  const out: string[] = [];
  let cur: string | null = null;
  for (let i = 0; i < cmd.length; i++) {
    const c = cmd[i] as string;
    if (c === "'") {
      const end = cmd.indexOf("'", i + 1);
      if (end < 0) return out; // unbalanced: not ours
      cur = (cur ?? '') + cmd.slice(i + 1, end);
      i = end;
    } else if (c === '\\' && i + 1 < cmd.length) {
      cur = (cur ?? '') + cmd[++i];
    } else if (/\s/.test(c)) {
      if (cur !== null) out.push(cur);
      cur = null;
    } else cur = (cur ?? '') + c;
  }
  if (cur !== null) out.push(cur);
  return out;
}

export const hookCommand = (p: Pick<HookPlan, 'node' | 'script'>) =>
  `${shellQuote(p.node)} ${shellQuote(p.script)} permission ${HOOK_MARKER}`;
export const hookTimeout = (waitSeconds: number) => waitSeconds + HOOK_TIMEOUT_MARGIN_SECONDS;

const isOurs = (h: unknown) => isObj(h) && typeof h.command === 'string' && h.command.includes(HOOK_MARKER);

/**
 * A hook exactly as install writes it (hookCommand, the same since the first release): a command hook running
 * `<node> <…/omc-top-hook.mjs> permission --omc-top-hook`, with a timeout and nothing else. Only these are taken
 * out of a file omc-top does not use now (older-entries.ts).
 */
export const isExactlyOurs = (h: unknown): boolean => {
  if (!isObj(h) || h.type !== 'command' || typeof h.command !== 'string') return false;
  if (Object.keys(h).some((k) => k !== 'type' && k !== 'command' && k !== 'timeout')) return false;
  if (h.timeout !== undefined && typeof h.timeout !== 'number') return false;
  const w = shellWords(h.command);
  return w.length === 4 && (w[1] ?? '').endsWith('omc-top-hook.mjs') && w[2] === 'permission' && w[3] === HOOK_MARKER;
};

interface Record_ {
  settings: string;
  /** install made `.claude/` itself: uninstall removes it again when it is left empty. */
  dir_existed: boolean;
  file_existed: boolean;
  hooks_existed: boolean;
  event_existed: boolean;
  /** The bytes before install (when the file existed): given back if nothing else changed. */
  before: string | null;
  /** The file as install wrote it: if it is still exactly this, uninstall restores `before`. */
  after: string;
  /**
   * false: a re-install found our hook in a file changed since (or with no record), so the bytes from before the
   * hook are unknown and uninstall only removes the entry. Records written before this field existed lack it:
   * they were made by a fresh install, so absent means true.
   */
  exact?: boolean;
}

const recordRel = (settingsAbs: string) =>
  `${PERMISSIONS_DIR}/installed-${createHash('sha256').update(bytesOfPath(settingsAbs)).digest('hex').slice(0, 16)}.json`;

/** The settings file, refused unless it holds hooks in the shape Claude Code reads. */
function load(projectDir: string): SettingsRead | SettingsRefusal {
  const l = loadSettings(projectDir);
  return l.ok ? (shapeProblem(l.doc) ?? l) : l;
}

function shapeProblem(v: Obj): SettingsRefusal | null {
  if (v.hooks !== undefined && !isObj(v.hooks))
    return { ok: false, code: 1, message: `${SETTINGS_REL}: "hooks" is not an object (nothing was changed)` };
  const ev = isObj(v.hooks) ? v.hooks[EVENT] : undefined;
  if (ev !== undefined && !Array.isArray(ev))
    return { ok: false, code: 1, message: `${SETTINGS_REL}: "hooks.${EVENT}" is not a list (nothing was changed)` };
  return null;
}

/** How many of our entries a parsed settings object holds. */
const oursIn = (doc: Obj) =>
  isObj(doc.hooks) && Array.isArray(doc.hooks[EVENT])
    ? (doc.hooks[EVENT] as unknown[]).reduce<number>(
        (n, e) => n + (isObj(e) && Array.isArray(e.hooks) ? e.hooks.filter(isOurs).length : 0),
        0,
      )
    : 0;

/** Our hook entries removed from a parsed settings object (a user's hooks in a shared entry stay). */
function without(doc: Obj): { doc: Obj; removed: number } {
  if (!isObj(doc.hooks) || !Array.isArray(doc.hooks[EVENT])) return { doc, removed: 0 };
  let removed = 0;
  const entries: unknown[] = [];
  for (const e of doc.hooks[EVENT] as unknown[]) {
    if (!isObj(e) || !Array.isArray(e.hooks)) {
      entries.push(e);
      continue;
    }
    const kept = e.hooks.filter((h) => !isOurs(h));
    removed += e.hooks.length - kept.length;
    if (kept.length > 0) entries.push(kept.length === e.hooks.length ? e : { ...e, hooks: kept });
  }
  return { doc: { ...doc, hooks: { ...doc.hooks, [EVENT]: entries } }, removed };
}

export interface HookStatus {
  installed: boolean;
  settingsPath: string;
  command: string | null;
  timeout: number | null;
  /** The hook script the command names exists. */
  scriptFound: boolean | null;
  waitSeconds: number;
  /** The settings file whose `"disableAllHooks": true` keeps Claude Code from running any hook here, or null. */
  hooksDisabledIn: string | null;
  /**
   * Settings files Claude Code does not load here because their `disableAllHooks` is not a boolean (none of their
   * hooks run, none of their keys apply), with that value as JSON.
   */
  settingsNotLoaded: { path: string; value: string }[];
  /** A problem with the installed entry, or with the file, or hooks turned off. */
  problem: string | null;
  /**
   * Other settings files holding omc-top's entry as an older omc-top wrote it (the superproject's, the start
   * directory's: older-entries.ts); `hooks uninstall` removes them.
   */
  alsoIn: string[];
}

/** The words for entries an older omc-top left elsewhere: the same in `hooks status` and `doctor`. */
export const alsoInWords = (files: readonly string[]) =>
  `omc-top's hook is also in ${files.map((f) => shownPath(f)).join(', ')} (an older omc-top wrote it there): \`omc-top hooks uninstall\` removes it`;

export interface HookPlace {
  /** Where Claude is run: the settings files it reads follow from it. */
  cwd: string;
  git?: GitProbe;
  /** Claude Code's managed settings directory (a test's scratch one). */
  managedDir?: string;
}

/** The words for hooks turned off, the same in `hooks status`, `doctor` and install's message. */
export const hooksOffWords = (file: string) =>
  `Claude Code runs no hook here: "${DISABLE_ALL_HOOKS}": true in ${shownPath(file)} (remove it, or set it to false in a settings file read after it)`;

/**
 * The words for a settings file Claude Code drops for a `disableAllHooks` that is not a boolean: the same in `hooks
 * status`, `doctor` and install's message. `ours`: the file holds omc-top's entry.
 */
export const notLoadedWords = (file: string, value: string, ours: boolean) =>
  `"${DISABLE_ALL_HOOKS}": ${cleanLine(value.length > 40 ? `${value.slice(0, 39)}…` : value)} in ${shownPath(file)} is not true or false: Claude Code does not load that file at all (${ours ? "nothing in it applies, omc-top's hook included" : 'nothing in it applies; hooks in the other files still run'}); write true or false`;

/** Whether omc-top's hook is in the settings file Claude Code started in `place.cwd` reads, and whether it can work. */
export function hookStatus(at: HookPlace | string, env: NodeJS.ProcessEnv = process.env): HookStatus {
  const place = typeof at === 'string' ? { cwd: at } : at;
  const git = place.git ?? realGit;
  const projectDir = claudeProjectDir(place.cwd, git);
  const waitSeconds = readAnswersConfig(env).permissionWaitSeconds ?? DEFAULT_WAIT_SECONDS;
  const settingsPath = path.join(projectDir, SETTINGS_REL);
  const sources = settingsSources(place.cwd, env, git, place.managedDir);
  const off = hooksDisabledBy(place.cwd, env, git, sources);
  const hooksDisabledIn = off ? sourcePath(off) : null;
  const settingsNotLoaded = unloadedSettings(sources).map((u) => ({ path: sourcePath(u.source), value: u.value }));
  // Hooks off is said first; then a file Claude does not load, omc-top's own first (its entry then does nothing).
  const unloaded = [...settingsNotLoaded].sort(
    (a, b) => Number(b.path === settingsPath) - Number(a.path === settingsPath),
  );
  const offProblem = hooksDisabledIn
    ? hooksOffWords(hooksDisabledIn)
    : unloaded.length > 0
      ? unloaded.map((u) => notLoadedWords(u.path, u.value, u.path === settingsPath)).join('; ')
      : null;
  const base = {
    settingsPath,
    waitSeconds,
    command: null,
    timeout: null,
    scriptFound: null,
    hooksDisabledIn,
    settingsNotLoaded,
    alsoIn: olderEntries(place.cwd, isExactlyOurs, git).map(olderPath),
  };
  const l = load(projectDir);
  if (!l.ok) return { ...base, installed: false, problem: l.message };
  const hooks = isObj(l.doc.hooks) && Array.isArray(l.doc.hooks[EVENT]) ? (l.doc.hooks[EVENT] as unknown[]) : [];
  const ours = hooks.flatMap((e) => (isObj(e) && Array.isArray(e.hooks) ? e.hooks.filter(isOurs) : [])) as Obj[];
  const h = ours[0];
  if (!h) return { ...base, installed: false, problem: offProblem };
  const command = cleanLine(h.command);
  const timeout = typeof h.timeout === 'number' ? h.timeout : null;
  const words = shellWords(String(h.command));
  const script = words.find((w) => w.endsWith('omc-top-hook.mjs')) ?? null;
  const scriptFound =
    script !== null && path.isAbsolute(script) ? statSync('/', script.slice(1))?.isFile() === true : false;
  // The node the entry pins (install writes this process's own): a version manager (nvm, fnm, asdf, Homebrew's
  // Cellar) removes it with an upgrade, and Claude's shell then fails the hook with 127 while the file looks fine.
  const runner = words[0] !== undefined && words[0] !== script && path.isAbsolute(words[0]) ? words[0] : null;
  const runnerStat = runner === null ? null : statSync('/', runner.slice(1));
  const runnerRuns = runner === null || (runnerStat?.isFile() === true && (runnerStat.mode & 0o111) !== 0);
  let problem: string | null = offProblem;
  if (problem !== null) {
    /* said first: nothing below matters while Claude runs no hook at all */
  } else if (!runnerRuns)
    problem = `the node it runs is ${runnerStat ? 'not an executable file' : 'missing'} (${cleanLine(runner ?? '')}): run \`omc-top hooks install\` again with the node you use now`;
  else if (!scriptFound)
    problem = `the hook script it runs is missing (${script ?? 'no path'}): run \`omc-top hooks install\` again`;
  else if (timeout === null || timeout <= waitSeconds)
    problem = `its timeout (${timeout ?? 'none'} s) is not above the wait (${waitSeconds} s): run \`omc-top hooks install\` again`;
  else if (ours.length > 1) problem = `${ours.length} omc-top entries: run \`omc-top hooks install\` again to keep one`;
  return { ...base, installed: true, command, timeout, scriptFound, problem };
}

/** `code`: the exit status (2 for a settings file refused as input: not UTF-8). */
export type InstallResult = { ok: boolean; message: string; code?: number };

const refused = (r: SettingsRefusal): InstallResult => ({ ok: false, message: r.message, code: r.code });

export function installHook(plan: HookPlan, stateDir: string, race: RaceProbe = {}): InstallResult {
  const settings = path.join(plan.projectDir, SETTINGS_REL);
  const entry = {
    matcher: '*',
    hooks: [{ type: 'command', command: hookCommand(plan), timeout: hookTimeout(plan.waitSeconds) }],
  };
  const dirExisted = statSync(plan.projectDir, '.claude') !== null;
  const out = changeSettings<{ removed: number }>(
    plan.projectDir,
    (l) => {
      const shape = shapeProblem(l.doc);
      if (shape) return shape;
      const stripped = without(l.doc);
      const hooks = isObj(l.doc.hooks) ? l.doc.hooks : undefined;
      // Hooks of other events and none of this one yet (`{"hooks": {"PreToolUse": […]}}`, or `{}`): a list of its own.
      const ours = isObj(stripped.doc.hooks) ? stripped.doc.hooks[EVENT] : undefined;
      const existing = Array.isArray(ours) ? (ours as unknown[]) : [];
      const text = renderSettings({ ...l.doc, hooks: { ...(hooks ?? {}), [EVENT]: [...existing, entry] } }, l.bom);
      // The very entry there already (a second install): nothing is written, and nothing is said to have changed.
      if (text === l.text) return { kind: 'stop', result: { removed: -1 } };
      return { kind: 'write', text, result: { removed: stripped.removed } };
    },
    (now) => hasEntry(now.doc, entry.hooks[0]?.command ?? ''),
    race,
  );
  if (!out.ok) return refused(out);
  if (out.result.removed < 0)
    return {
      ok: true,
      message: `the PermissionRequest hook is installed in ${settings} already, as it would be written: nothing changed`,
    };
  const l = out.read;
  const hooks = isObj(l.doc.hooks) ? l.doc.hooks : undefined;
  const after = out.step.kind === 'write' ? out.step.text : '';
  const fresh: Record_ = {
    settings,
    dir_existed: dirExisted,
    file_existed: l.text !== null,
    hooks_existed: hooks !== undefined,
    event_existed: hooks !== undefined && hooks[EVENT] !== undefined,
    before: l.text,
    after,
    exact: true,
  };
  const record = nextRecord(out.result.removed > 0, l.text, fresh, readRecord(stateDir, settings));
  try {
    ensureOwnDir(stateDir);
    atomicWriteSync(stateDir, recordRel(settings), JSON.stringify(record), { mkdir: 'private' });
  } catch {
    /* uninstall still finds the entry by its marker */
  }
  return {
    ok: true,
    message: `${out.result.removed > 0 ? 'updated' : 'added'} the PermissionRequest hook in ${settings} (waits ${plan.waitSeconds} s, Claude's timeout ${hookTimeout(plan.waitSeconds)} s)`,
  };
}

/** The file holds our entry with this very command. */
const hasEntry = (doc: Obj, command: string) =>
  isObj(doc.hooks) &&
  Array.isArray(doc.hooks[EVENT]) &&
  (doc.hooks[EVENT] as unknown[]).some(
    (e) => isObj(e) && Array.isArray(e.hooks) && e.hooks.some((h) => isOurs(h) && (h as Obj).command === command),
  );

/**
 * What a (re-)install records. With no hook of ours in the file, whatever an older record says is about a file
 * since changed by hand (the hook removed, or the project re-created): what is there now is the original. With
 * our hook there, the original predates it: known only if the file is exactly what the last install wrote.
 */
function nextRecord(hookFound: boolean, found: string | null, fresh: Record_, prev: Record_ | null): Record_ {
  if (!hookFound) return fresh;
  if (prev && prev.exact !== false && found === prev.after) return { ...prev, after: fresh.after };
  // Unknown original: uninstall must take out just our entry. Without a record, what install created around it
  // is unknown too: keep the file and `.claude/`, drop the keys only if our entry was all they held.
  const around = prev ?? { dir_existed: true, file_existed: true, hooks_existed: false, event_existed: false };
  return {
    settings: fresh.settings,
    dir_existed: around.dir_existed,
    file_existed: around.file_existed,
    hooks_existed: around.hooks_existed,
    event_existed: around.event_existed,
    before: null,
    after: fresh.after,
    exact: false,
  };
}

function readRecord(stateDir: string, settings: string): Record_ | null {
  const r = readJsonSync(stateDir, recordRel(settings), 4 * 1024 * 1024);
  if (!r.ok || !isObj(r.value)) return null;
  const v = r.value;
  if (
    v.settings !== settings ||
    typeof v.dir_existed !== 'boolean' ||
    typeof v.file_existed !== 'boolean' ||
    typeof v.hooks_existed !== 'boolean' ||
    typeof v.event_existed !== 'boolean' ||
    !(v.before === null || typeof v.before === 'string') ||
    typeof v.after !== 'string' ||
    !(v.exact === undefined || typeof v.exact === 'boolean')
  )
    return null;
  return v as unknown as Record_;
}

/** `.claude/` made by install, now empty again: removed inside the project directory held open. */
function removeEmptyClaudeDir(projectDir: string): void {
  try {
    withDirUnder(projectDir, '.', (dir) => fs.rmdirSync(dir.at('.claude')));
  } catch {
    /* not empty (Claude Code wrote there meanwhile), or gone: leave it */
  }
}

export function uninstallHook(projectDir: string, stateDir: string, race: RaceProbe = {}): InstallResult {
  const settings = path.join(projectDir, SETTINGS_REL);
  const rec = readRecord(stateDir, settings);
  const forget = () => {
    try {
      unlinkUnder(stateDir, recordRel(settings));
    } catch {
      /* best effort */
    }
  };
  const out = changeSettings<boolean>(
    projectDir,
    (l) => {
      const shape = shapeProblem(l.doc);
      if (shape) return shape;
      const { doc, removed } = without(l.doc);
      if (removed === 0) return { kind: 'stop', result: false };
      // Nothing else changed since install: the original bytes (or no file at all) come back exactly.
      if (rec && rec.exact !== false && l.text === rec.after)
        return rec.before === null
          ? { kind: 'unlink', result: true }
          : { kind: 'write', text: rec.before, result: true };
      const hooks = doc.hooks as Obj;
      const next: Obj = { ...doc };
      const event = hooks[EVENT] as unknown[];
      const nextHooks: Obj = { ...hooks };
      if (event.length === 0 && !(rec?.event_existed ?? false)) delete nextHooks[EVENT];
      if (Object.keys(nextHooks).length === 0 && !(rec?.hooks_existed ?? false)) delete next.hooks;
      else next.hooks = nextHooks;
      if (Object.keys(next).length === 0 && rec !== null && !rec.file_existed) return { kind: 'unlink', result: true };
      return { kind: 'write', text: renderSettings(next, l.bom), result: true };
    },
    (now) => oursIn(now.doc) === 0,
    race,
  );
  if (!out.ok) return refused(out);
  forget();
  if (!out.result) return { ok: true, message: `no omc-top hook in ${settings}: nothing to remove` };
  if (rec && !rec.dir_existed) removeEmptyClaudeDir(projectDir);
  return { ok: true, message: `removed the omc-top PermissionRequest hook from ${settings}` };
}

/**
 * `hooks uninstall` for what an older omc-top left in the superproject's or the start directory's settings files
 * (older-entries.ts): each removed with the same guarded replace; the messages, one per file changed or refused.
 */
export function uninstallOlder(
  cwd: string,
  stateDir: string,
  git: GitProbe = realGit,
  race: RaceProbe = {},
): { ok: boolean; messages: string[]; code?: number } {
  const messages: string[] = [];
  let ok = true;
  let code: number | undefined;
  for (const p of olderEntries(cwd, isExactlyOurs, git)) {
    const file = olderPath(p);
    const r = removeOlder(p, isExactlyOurs, readRecord(stateDir, file), race);
    if (!r.ok) {
      ok = false;
      code = r.code;
      messages.push(`${file}: ${r.message}`);
      continue;
    }
    if (!r.removed) continue;
    try {
      unlinkUnder(stateDir, recordRel(file));
    } catch {
      /* best effort */
    }
    messages.push(`removed the omc-top PermissionRequest hook an older omc-top wrote in ${file}`);
  }
  return { ok, messages, ...(code === undefined ? {} : { code }) };
}
