/**
 * A root given with --root that holds none of OMC's files (an empty directory, someone else's): its problem line says
 * so for as long as it is true, since "No sessions yet" there says nothing about OMC. Not refused (a fresh root OMC
 * will fill is legitimate); the line goes once OMC writes any of its names at the top of the root.
 */
import { isDirectorySync } from '../io/safe-fs/index.js';
import { noOmcStateWords } from './root.js';
import type { Domain, Problem } from './types.js';

export function givenRootStateDomain(root: string): Domain {
  let problems: Problem[] = [];
  // Once the root holds OMC's files it is not looked at again: its top-level writes (notepad.md…) list nothing.
  let holds = false;
  const listeners = new Set<() => void>();
  const scan = () => {
    if (holds) return;
    const words = noOmcStateWords(root);
    // A root not there yet may still be made empty: only one that is there and holds OMC's files is done with.
    holds = words === null && isDirectorySync(root);
    if ((problems[0]?.message ?? null) === words) return;
    problems = words ? [{ path: '--root', message: words, severity: 'warning' }] : [];
    for (const l of listeners) l();
  };
  return {
    name: 'given root',
    // The root's own top-level names: one appearing (state/, notepad.md…) ends the line.
    wants: (rel) => !holds && rel !== '' && !rel.includes('/'),
    scan,
    refresh: scan,
    problems: () => problems,
    subscribe: (l: () => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}
