/**
 * Bad-input corpus, knowledge files: every case through the whole App (see
 * test/helpers/hostile-run.ts for the five things each case proves).
 */
import { describe, it } from 'vitest';
import { knowledgeCases } from '../helpers/hostile-corpus.js';
import { runCase } from '../helpers/hostile-run.js';

describe('bad input: knowledge files', () => {
  for (const c of knowledgeCases()) it(c.name, () => runCase(c));
});
