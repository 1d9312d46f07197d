/**
 * OMC's run ledger omc-top may not read (its directory refused to this user), then gone: its "not read" line says
 * why while it is refused, and goes with the file (a refused ledger under a root that became unreadable stayed
 * "not read" for good once the root was readable again and the ledger was found absent). The refusal is injected
 * as the kernel gives it (test/helpers/read-faults.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { refuseReads, type ReadFault } from '../helpers/read-faults.js';
import { LEDGER_REL, LedgerReader } from '../../src/store/runs/ledger.js';

let fault: ReadFault | null = null;
afterEach(() => {
  fault?.restore();
  fault = null;
});

describe('the run ledger refused, then gone', () => {
  it('says why while refused, and nothing once it is gone', ({ tempDir }) => {
    const root = tempDir('omc-top-ledger-');
    const file = path.join(root, LEDGER_REL);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '');
    const ledger = new LedgerReader(root);
    ledger.poll();
    expect(ledger.problems()).toEqual([]);
    fault = refuseReads('EACCES', (abs) => abs === file);
    expect(ledger.poll()).toBe(true);
    expect(ledger.problems().map((p) => [p.path, p.message])).toEqual([
      [LEDGER_REL, expect.stringMatching(/^run ledger not read: permission denied/)],
    ]);
    fault.restore();
    fault = null;
    fs.rmSync(file);
    expect(ledger.poll()).toBe(true);
    expect(ledger.problems()).toEqual([]);
  });
});
