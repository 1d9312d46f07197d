/**
 * A scratch project for tests of OMC 5.5's graph runs and their human gates: its `.omc` root and the `graph-runs`
 * directory OMC's runtime writes under it, and stores reading that root. cleanupGraphProjects (call it from
 * afterEach) closes the stores, then removes the projects.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OmcStore } from '../../src/store/store.js';

const dirs: string[] = [];
const stores: OmcStore[] = [];

export async function cleanupGraphProjects(): Promise<void> {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

/** A project directory `<tmp>/<prefix>XXXXXX` (its real path); `.omc` is not made (OMC's runtime makes it). */
export function graphProject(prefix: string): { dir: string; root: string; runsRoot: string } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  dirs.push(dir);
  const root = path.join(dir, '.omc');
  return { dir, root, runsRoot: path.join(root, 'graph-runs') };
}

/** A started store on `root` (its project the directory above), no watch and no Claude side: it reads on demand. */
export function graphStoreOn(root: string): OmcStore {
  const s = new OmcStore({ root, watch: 'none', projectDir: path.dirname(root), claude: { live: false, env: {} } });
  stores.push(s);
  s.start();
  return s;
}
