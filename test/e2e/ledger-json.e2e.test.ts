/**
 * `--json` over a run ledger with a line longer than the part omc-top reads (sweep 3, finding 14), from the
 * built bundle: the problem lines cite the file's own line numbers and say which lines were not read, and an
 * outcome OMC does not write is `"outcome": "unknown"` with what the line said in `"ledger_outcome"`.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from '../helpers/it.js';
import { BIN } from '../helpers/pty.js';
import { sessionOf, writeLongLineLedger } from '../helpers/long-line-ledger.js';

interface Doc {
  problems: { path: string; severity: string; message: string }[];
  runs: Record<string, unknown>[];
}

describe('omc-top --json: the run ledger', () => {
  it('names the skipped lines by their numbers in the file, and an unknown outcome as unknown', ({
    emptyProject: p,
  }) => {
    writeLongLineLedger(p.root, { runs: 60, longBytes: 1_150_000 });
    const r = spawnSync(process.execPath, [BIN, '--json', '--root', p.root], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as Doc;
    const ledger = doc.problems.filter((x) => x.path === 'state/runs/ledger.jsonl').map((x) => x.message);
    expect(ledger).toEqual([
      `2 ledger lines skipped (line 21: 1150000 bytes long (not a ledger record); line 31: no "run"); OMC's reconciler skips them too`,
      'lines 1–20 not read: omc-top reads at most the last 1.0 MB of this file at a time; runs recorded only there are not in History',
      `17 ledger end lines with an outcome OMC does not write (line 22: "weird-outcome"; line 27: "weird-outcome"; line 33: "weird-outcome"; …); History shows them as unknown`,
    ]);
    const run = (i: number) => doc.runs.find((x) => x.session === sessionOf(i));
    expect(run(59)).toMatchObject({ mode: 'evil␛]0;X␇mode', outcome: 'unknown', ledger_outcome: 'weird-outcome' });
    expect(run(58)).toMatchObject({ mode: 'ultragoal', outcome: 'cancelled', ledger_outcome: 'cancelled' });
    expect(run(57)).toMatchObject({ mode: 'team', outcome: 'crashed', ledger_outcome: null });
    expect(doc.runs.filter((x) => x.outcome === 'cancelled' && x.ledger_outcome !== 'cancelled')).toEqual([]);
  });
});
