/**
 * Bad-input corpus, sessions files: every case through the whole App (see
 * test/helpers/hostile-run.ts for the five things each case proves).
 */
import { describe, it } from 'vitest';
import { sessionCases } from '../helpers/hostile-corpus.js';
import { runCase } from '../helpers/hostile-run.js';

describe('bad input: sessions files', () => {
  for (const c of sessionCases()) it(c.name, () => runCase(c));
});
