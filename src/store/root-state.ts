/**
 * A root given with --root that holds none of OMC's files (an empty directory, someone else's): its problem line says
 * so for as long as it is true, since "No sessions yet" there says nothing about OMC. Not refused (a fresh root OMC
 * will fill is legitimate); the line goes once OMC writes any of its names at the top of the root.
 */
import { noOmcStateWords } from './root.js';
import type { Domain, Problem } from './types.js';

export function givenRootStateDomain(root: string): Domain {
  let problems: Problem[] = [];
  const listeners = new Set<() => void>();
  const scan = () => {
    const words = noOmcStateWords(root);
    if ((problems[0]?.message ?? null) === words) return;
    problems = words ? [{ path: '--root', message: words, severity: 'warning' }] : [];
    for (const l of listeners) l();
  };
  return {
    name: 'given root',
    // The root's own top-level names: one appearing (state/, notepad.md…) ends the line.
    wants: (rel) => rel !== '' && !rel.includes('/'),
    scan,
    refresh: scan,
    problems: () => problems,
    subscribe: (l: () => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}
