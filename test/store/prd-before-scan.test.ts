/**
 * The progressive start draws ralph rows before the PRD domain's first scan; each row then asks for its PRD
 * itself. The candidates every session shares (the project's prd.json, .omc's, .omc/state's) are looked at once
 * for all those rows, not once per row, so every row of the first frame shows the same answer about them; the
 * first scan drops those answers and every row is asked again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { PrdDomain } from '../../src/store/prd/domain.js';
import { writeOmcJson } from '../helpers/fixtures.js';

const A = '0f6c2a57-3b1e-4f0a-9d7e-5a2b8c1d4e6a';
const B = '0f6c2a57-3b1e-4f0a-9d7e-5a2b8c1d4e6b';
const prd = (passes: boolean[]) => ({
  project: 'p',
  branchName: 'main',
  description: 'task',
  userStories: passes.map((p, i) => ({
    id: `US-00${i + 1}`,
    title: `story ${i + 1}`,
    description: 'd',
    acceptanceCriteria: ['done'],
    priority: i + 1,
    passes: p,
  })),
});

describe('PRD lookups before the first scan', () => {
  it('share one look at the shared files among the rows, and the first scan looks again', ({ emptyProject: p }) => {
    let changes = 0;
    const d = new PrdDomain({ root: p.root, projectDir: p.dir, rules: '5.5' });
    d.subscribe(() => changes++);
    expect(d.lookup(A)).toBeNull();
    // The shared PRD appears while the first frame's rows are being drawn: the rows drawn after it say what the
    // first ones said, until the scan.
    fs.writeFileSync(path.join(p.root, 'prd.json'), JSON.stringify(prd([false, false])));
    expect(d.lookup(B)).toBeNull();
    d.scan();
    expect(changes).toBe(1);
    expect(d.lookup(A)?.path).toBe('prd.json');
    expect(d.lookup(B)?.path).toBe('prd.json');
  });

  it("still read a session's own PRD for its row", ({ emptyProject: p }) => {
    writeOmcJson(path.join(p.root, 'state', 'sessions', A, 'prd.json'), prd([true, false]));
    fs.writeFileSync(path.join(p.root, 'prd.json'), JSON.stringify(prd([false])));
    const d = new PrdDomain({ root: p.root, projectDir: p.dir, rules: '5.5' });
    expect(d.lookup(A)?.path).toBe(`state/sessions/${A}/prd.json`);
    expect(d.lookup(B)?.path).toBe('prd.json');
  });
});
