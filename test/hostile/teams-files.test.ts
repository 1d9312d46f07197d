/**
 * Bad-input corpus, teams files: every case through the whole App (see
 * test/helpers/hostile-run.ts for the five things each case proves).
 */
import { describe, it } from 'vitest';
import { teamCases } from '../helpers/hostile-corpus.js';
import { runCase } from '../helpers/hostile-run.js';

describe('bad input: teams files', () => {
  for (const c of teamCases()) it(c.name, () => runCase(c));
});
