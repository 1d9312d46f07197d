/**
 * May omc-top act on a registry entry (signal its pid)? Only when the file is the user's own and nobody else could
 * have written it: owned by the user, not writable by others — or writable by its group but in a directory no
 * one else can enter (Claude Code 2.1.332 makes `sessions/` mode 0700 and writes its entries with the user's
 * umask: 0664 under umask 002, seen in a run), with no other name for the file (one link). The entry is read
 * again now, on the same descriptor as its owner, and must still say what was planned on.
 */
import path from 'node:path';
import { dirOwnershipSync, readJsonSync } from '../../io/safe-fs/index.js';
import { parseRegistryEntry, REGISTRY_FILE_MAX_BYTES } from './registry.js';
import { CLAUDE_DIR_READ } from './config-dir.js';

export type RegistryTrust = { ok: true; how: string } | { ok: false; reason: string };

export interface Expected {
  pid: number;
  sessionId: string;
  procStart: string;
}

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, '0');
const WRITE_BY_OTHERS = 0o022;
/** Group or others may enter the directory (search bit): a file in it is reachable by them. */
const ENTER_BY_OTHERS = 0o011;

export function checkRegistryFile(
  configDir: string,
  rel: string,
  expected: Expected,
  uid: number | undefined = process.getuid?.(),
): RegistryTrust {
  if (uid === undefined) return { ok: false, reason: 'cannot tell file owners on this system' };
  const r = readJsonSync(configDir, rel, REGISTRY_FILE_MAX_BYTES, CLAUDE_DIR_READ);
  if (!r.ok) return { ok: false, reason: `its registry file ${rel} ${r.message}` };
  const p = parseRegistryEntry(rel, r.value, r.read.mtimeMs);
  if (!p.ok) return { ok: false, reason: `its registry file ${rel}: ${p.message}` };
  const e = p.entry;
  if (e.pid !== expected.pid || e.sessionId !== expected.sessionId || e.procStart !== expected.procStart)
    return { ok: false, reason: `its registry file ${rel} no longer says what was checked` };
  const f = r.read;
  if (f.uid !== uid) return { ok: false, reason: `its registry file ${rel} is owned by uid ${f.uid}, not by you` };
  const dirRel = path.posix.dirname(rel);
  const dir = dirOwnershipSync(configDir, dirRel);
  if (!dir.ok) return { ok: false, reason: `the registry directory ${dirRel} ${dir.message}` };
  if (dir.uid !== uid)
    return { ok: false, reason: `the registry directory ${dirRel} is owned by uid ${dir.uid}, not by you` };
  if (dir.mode & WRITE_BY_OTHERS)
    return {
      ok: false,
      reason: `the registry directory ${dirRel} is writable by others (mode ${octal(dir.mode)}): anyone could have put ${rel} there`,
    };
  if (f.mode & WRITE_BY_OTHERS) {
    const whom = f.mode & 0o002 ? 'anyone' : 'its group';
    if (dir.mode & ENTER_BY_OTHERS)
      return { ok: false, reason: `its registry file ${rel} is writable by ${whom} (mode ${octal(f.mode)})` };
    if (f.nlink !== 1)
      return {
        ok: false,
        reason: `its registry file ${rel} is writable by ${whom} (mode ${octal(f.mode)}) and has ${f.nlink} names`,
      };
  }
  return { ok: true, how: `registry ${rel} owned by you and writable only by you` };
}
