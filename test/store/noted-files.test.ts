/**
 * Ralph's prd.json and OMC 5.6's feedback-baseline.json in session directories are found from the sessions
 * domain's own listings (no lstat per session directory on every scan: 10,000 failed lookups at 10,000
 * sessions, twice during start-up). A file that appears or goes after its directory was listed must still be
 * known to the next scan (a rescan, a poll tick), not only to the event that named it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { waitFor, writeLiveRalph, writeOmcJson } from '../helpers/fixtures.js';

const SID = 'a1b2c3d4-0000-4000-8000-00000000000a';
const BASELINE = `state/sessions/${SID}/feedback-baseline.json`;
const PRD = `state/sessions/${SID}/prd.json`;

describe('files noted from session listings', () => {
  it.for([false, true])(
    'a baseline or PRD written after the listing survives the next scans, and one removed is gone (progressive %s)',
    async (progressive, { emptyProject: p, newStore }) => {
      const now = new Date().toISOString();
      writeLiveRalph(p, { sessionId: SID, iteration: 1, max: 10, startedAt: now, checkedAt: now });
      const store = newStore({ root: p.root, watch: 'auto' });
      store.start({ progressive });
      const s = store;
      await waitFor(() => s.status.getSnapshot().watchMode === 'events' && !s.status.getSnapshot().reading, {
        what: 'live',
        timeoutMs: 30_000,
      });
      expect(s.runs.omc56Files(SID, ['ralph'])).not.toContain(BASELINE);

      writeOmcJson(path.join(p.root, BASELINE), { signatures: [] });
      // An invalid PRD is a problem line: that is what the PRD domain keeps from its candidates.
      fs.writeFileSync(path.join(p.root, PRD), '{"userStories": [');
      await waitFor(() => s.runs.omc56Files(SID, ['ralph']).includes(BASELINE), {
        what: 'the baseline event',
        timeoutMs: 30_000,
      });
      const prdProblem = () => s.prd.problems().some((x) => x.path === PRD);
      await waitFor(prdProblem, { what: 'the PRD problem', timeoutMs: 30_000 });

      // What a rescan does: every domain scans again, the sessions domain first.
      for (const d of [s.sessions, s.runs, s.prd]) d.scan();
      expect(s.runs.omc56Files(SID, ['ralph'])).toContain(BASELINE);
      expect(prdProblem()).toBe(true);
      // The scan of the runs and PRD domains alone (a small domain's own re-read at `ready`) too.
      s.runs.scan();
      s.prd.scan();
      expect(s.runs.omc56Files(SID, ['ralph'])).toContain(BASELINE);
      expect(prdProblem()).toBe(true);

      fs.rmSync(path.join(p.root, BASELINE));
      fs.rmSync(path.join(p.root, PRD));
      await waitFor(() => !s.runs.omc56Files(SID, ['ralph']).includes(BASELINE), {
        what: 'the baseline gone',
        timeoutMs: 30_000,
      });
      s.runs.scan();
      s.prd.scan();
      expect(s.runs.omc56Files(SID, ['ralph'])).not.toContain(BASELINE);
      await waitFor(() => !prdProblem(), { what: 'the PRD problem gone', timeoutMs: 30_000 });
    },
  );
});
