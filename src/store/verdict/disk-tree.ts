/**
 * The hook's view of a .omc tree read fresh from disk (through fsx): what the cancel
 * command and the cancel tracker re-read to say "the Stop hook now lets the agent stop",
 * and what the differential tests feed the engine. The live monitor builds the same view
 * from the sessions domain's records instead (no extra reads).
 */
import path from 'node:path';
import { listDirSync, readTextSync } from '../../io/safe-fs/index.js';
import { SESSION_ID_RE } from '../sessions/omc-rules.js';
import { GLOBAL_PREFIX, type HookTree } from './types.js';

/** A file as OMC's `readJsonFile` sees it: JSON.parse of the raw text, null on any failure. */
function hookRead(root: string, rel: string): unknown {
  const r = readTextSync(root, rel);
  if (!r.ok) return null;
  // JSON.parse rejects a leading byte-order mark, which fsx has already dropped.
  if (r.bom) return null;
  try {
    return JSON.parse(r.text) as unknown;
  } catch {
    return null;
  }
}

/**
 * @param opts.home the user's home: `~/.omc/…` paths (the hooks' global fallback) are read there;
 *   without it they read as absent.
 */
export function diskTree(root: string, opts: { home?: string | null } = {}): HookTree {
  const cache = new Map<string, unknown>();
  const globalRoot = opts.home ? path.join(opts.home, '.omc') : null;
  const read = (rel: string) => {
    if (!cache.has(rel)) {
      const global = rel.startsWith(GLOBAL_PREFIX);
      // The project's root may itself be ~/.omc (5.5.0 outside git): the same file either way.
      cache.set(
        rel,
        global ? (globalRoot ? hookRead(globalRoot, rel.slice(GLOBAL_PREFIX.length)) : null) : hookRead(root, rel),
      );
    }
    return cache.get(rel);
  };
  let dirs: string[] | null = null;
  return {
    read,
    findOwnedCopy(file, sid) {
      if (dirs === null) {
        const l = listDirSync(root, 'state/sessions');
        // In directory order, as the hook's readdirSync sees them.
        dirs = l.ok ? l.entries.map((e) => e.name).filter((n) => SESSION_ID_RE.test(n)) : [];
      }
      for (const d of dirs) {
        const rel = `state/sessions/${d}/${file}`;
        const v = read(rel);
        if (v && (v as Record<string, unknown>).session_id === sid) return { rel, value: v };
      }
      return null;
    },
  };
}
