/** The demo simulator writes a notepad OMC itself reads, so the pane is alive in `npm run demo`. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { NotepadDomain } from '../../src/store/notepad/domain.js';
import { isDue } from '../../src/store/notepad/model.js';
import { REPO } from '../helpers/fixtures.js';
import { loadOmcNotepad } from '../helpers/omc-notepad.js';

describe('demo/sim/notepad.mjs', () => {
  it("writes OMC's template, Priority, MANUAL and Working entries (one due for pruning) under the lock", async ({
    emptyProject: p,
  }) => {
    const { makeContext } = await import(path.join(REPO, 'demo', 'lib.mjs'));
    const sim = await import(path.join(REPO, 'demo', 'sim', 'notepad.mjs'));
    const stop = sim.start(makeContext(p.root, p.dir));
    stop();
    expect(sim.name).toBe('notepad');
    const omc = await loadOmcNotepad();
    expect(omc.getPriorityContext(p.dir)).toMatch(/integer cents/);
    expect(omc.getNotepadStats(p.dir).workingMemoryEntries).toBe(3);
    expect(omc.getManualSection(p.dir)).toMatch(/^### \d{4}-\d{2}-\d{2} \d{2}:\d{2}\nRelease owner/);
    expect(fs.existsSync(path.join(p.root, 'notepad.md.lock'))).toBe(false);
    const d = new NotepadDomain({ root: p.root });
    d.scan();
    const s = d.getSnapshot();
    expect(s.problems).toEqual([]);
    expect(s.sections.working.entries.filter((e) => isDue(e, Date.now()))).toHaveLength(1);
  });
});
