/**
 * omc-top's hook entries where an older omc-top put them. Before settings-sources.ts it wrote the entry into the
 * settings file of OMC's state anchor, which for a submodule is the superproject's top; Claude started in the
 * submodule does not read that file, and `hooks uninstall` run there only looked at the file Claude reads. These
 * are found in the superprojects' and the start directory's `.claude/settings*.json`, recognised only when they are
 * exactly what install writes (a user's hook that mentions omc-top is not one), and removed with the same guarded
 * replace (settings-file.ts): the bytes before install when the file is still what install left, else only the
 * entry's bytes cut out, every other byte of the file kept.
 */
import path from 'node:path';
import { realGit, type GitProbe } from '../../io/git.js';
import { claudeProjectDir, LOCAL_SETTINGS_REL } from '../claude/settings-sources.js';
import { jsonSpans, withoutElement, type JsonSpan } from './json-spans.js';
import { changeSettings, isObj, loadSettings, type RaceProbe, type SettingsRefusal } from './settings-file.js';

export interface OlderPlace {
  dir: string;
  rel: string;
}

export const olderPath = (p: OlderPlace) => path.join(p.dir, p.rel);

const RELS = [LOCAL_SETTINGS_REL, '.claude/settings.json'];

/** The files to look in from `cwd`: every superproject's top and `cwd` itself, not the file Claude reads there. */
export function olderPlaces(cwd: string, git: GitProbe = realGit): OlderPlace[] {
  const own = path.join(claudeProjectDir(cwd, git), LOCAL_SETTINGS_REL);
  const dirs: string[] = [];
  let top = git.topLevel(cwd);
  for (let n = 0; top !== null && n < 16; n++) {
    const sup = git.superproject(top);
    if (sup === null || dirs.includes(sup)) break;
    dirs.push(sup);
    top = sup;
  }
  dirs.push(cwd);
  const out: OlderPlace[] = [];
  for (const dir of dirs)
    for (const rel of RELS) {
      const p = { dir, rel };
      if (olderPath(p) !== own && !out.some((o) => olderPath(o) === olderPath(p))) out.push(p);
    }
  return out;
}

/** The places among `olderPlaces(cwd)` that hold an entry exactly as install writes it. */
export function olderEntries(
  cwd: string,
  isExactlyOurs: (h: unknown) => boolean,
  git: GitProbe = realGit,
): OlderPlace[] {
  return olderPlaces(cwd, git).filter((p) => {
    const l = loadSettings(p.dir, p.rel);
    return l.ok && l.text !== null && findOurs(l.text, isExactlyOurs) !== null;
  });
}

const EVENT = 'PermissionRequest';

/** The first of our hooks in the text: the event list, the entry's index, and the hook's index in it. */
function findOurs(
  text: string,
  isExactlyOurs: (h: unknown) => boolean,
): { list: JsonSpan; entry: JsonSpan; i: number; j: number; alone: boolean } | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return null;
  }
  const entries = isObj(doc) && isObj(doc.hooks) ? doc.hooks[EVENT] : undefined;
  if (!Array.isArray(entries)) return null;
  for (const [i, e] of entries.entries()) {
    if (!isObj(e) || !Array.isArray(e.hooks)) continue;
    const j = e.hooks.findIndex(isExactlyOurs);
    if (j < 0) continue;
    const list = jsonSpans(text)?.members?.get('hooks')?.members?.get(EVENT);
    const entry = list?.elements?.[i]?.members?.get('hooks');
    if (!list || !entry) return null;
    return { list, entry, i, j, alone: e.hooks.every(isExactlyOurs) };
  }
  return null;
}

/** The text with every hook of ours cut out (an entry holding only ours goes whole), other bytes kept. */
function cutOurs(text: string, isExactlyOurs: (h: unknown) => boolean): string {
  let out = text;
  for (let n = 0; n < 256; n++) {
    const at = findOurs(out, isExactlyOurs);
    if (!at) return out;
    out = at.alone ? withoutElement(out, at.list, at.i) : withoutElement(out, at.entry, at.j);
  }
  return out;
}

export interface InstallRecordView {
  before: string | null;
  after: string;
  exact?: boolean;
}

/**
 * Removes our entries from one older place. `record`: what that older install recorded for this file (its bytes
 * before and after), if anything. Returns whether something was removed, or why nothing was changed.
 */
export function removeOlder(
  p: OlderPlace,
  isExactlyOurs: (h: unknown) => boolean,
  record: InstallRecordView | null,
  race: RaceProbe = {},
): { ok: true; removed: boolean } | SettingsRefusal {
  const out = changeSettings<boolean>(
    p.dir,
    (l) => {
      if (l.text === null || findOurs(l.text, isExactlyOurs) === null) return { kind: 'stop', result: false };
      // Nothing else changed since that install: the original bytes (or no file at all) come back exactly.
      if (record && record.exact !== false && l.text === record.after)
        return record.before === null
          ? { kind: 'unlink', result: true }
          : { kind: 'write', text: record.before, result: true };
      const text = cutOurs(l.text, isExactlyOurs);
      if (findOurs(text, isExactlyOurs) !== null || text === l.text)
        return { ok: false, code: 1, message: `${p.rel}: omc-top's entry could not be cut out (nothing was changed)` };
      return { kind: 'write', text, result: true };
    },
    (now) => now.text === null || findOurs(now.text, isExactlyOurs) === null,
    race,
    p.rel,
  );
  return out.ok ? { ok: true, removed: out.result } : out;
}
