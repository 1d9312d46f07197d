/**
 * Which OMC judges the statuses, as the JSON surfaces say it: `--json`'s `omc_version` and `watch --json`'s `omc`
 * (on the `omc` line and on `ready`), one object so both say the same.
 */
import { newerThanKnownWords } from '../store/omc-books.js';

export interface OmcJsonInput {
  version: string | null;
  source: string;
  assumed: boolean;
  rules: string;
}

export const omcJson = (o: OmcJsonInput) => ({
  version: o.version,
  source: o.source,
  assumed: o.assumed,
  rules: o.rules,
  // The monitor's line when the version is newer than every release omc-top knows (its rules a guess), else null.
  newer_than_known: o.assumed ? null : newerThanKnownWords(o.version),
});
