/**
 * The hook's view of a .omc tree read fresh from disk (through fsx): what the cancel
 * command and the cancel tracker re-read to say "the Stop hook now lets the agent stop",
 * and what the differential tests feed the engine. The live monitor builds the same view
 * from the sessions domain's records instead (no extra reads).
 */
import { listDirSync, readTextSync } from '../../io/safe-fs/index.js';
import { SESSION_ID_RE } from '../sessions/omc-rules.js';
import type { HookTree } from './types.js';

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

export function diskTree(root: string): HookTree {
  const cache = new Map<string, unknown>();
  const read = (rel: string) => {
    if (!cache.has(rel)) cache.set(rel, hookRead(root, rel));
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
