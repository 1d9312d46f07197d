/**
 * The last good OMC version, kept while a file that decides it cannot be read (the house's last-good rule, applied to
 * the files outside `.omc` that say which OMC runs the hooks). A running monitor found OMC 4.4.4 from the plugin
 * registry; the registry is then caught torn or left empty, or settings.json is left unparsable by a hand edit (or
 * empty: a truncation with no write after it, confirmed by the second look omc-recheck makes): a fresh look finds
 * no plugin and would judge by the newest book, though nothing says the plugin went. Until the file can be read again
 * the answer in force stays, its words saying it is not re-checked and which file stops that. A file changed and
 * still readable (a plugin disabled, updated, removed from the registry) is followed as before: only a file newly
 * refused keeps the answer. A fresh process has no answer before it (`--json`, doctor): it says "assumed", as before.
 */
import { installKey, refusalWords, type OmcFileRefusal, type OmcInstall } from './omc-install.js';

/** The header's word beside the source of a kept answer: "OMC 4.4.4 (plugin · not re-checked)". */
export const KEPT_TAG = 'not re-checked';

/**
 * The answer to take from a look (`found`) while `current` is in force: `found` itself, or `current`'s finding kept
 * because a file that decides it is refused now and was read when it was found.
 */
export function keepLastGood(found: OmcInstall, current: OmcInstall): OmcInstall {
  const good = current.keptFrom ?? current;
  // Nothing to keep: a guess, a pinned what-if, or an answer a live process decided (gone: looked for afresh).
  if (good.assumed || good.version === null || good.process !== undefined) return found;
  if (good.sourceTag === '--omc-version' || good.sourceTag === 'env') return found;
  // A live Claude's --plugin-dir decides over every file: found so, no file's state can stand against it.
  if (found.process !== undefined || found.sourceTag === '--plugin-dir') return found;
  const before = new Set(good.refused.map((r) => r.path));
  const newlyRefused = found.refused.filter((r) => !before.has(r.path));
  if (newlyRefused.length === 0) return found;
  // Found the same without the file (another file decides): no need to keep anything.
  if (sameFinding(found, good)) return found;
  return kept(good, found.refused, newlyRefused);
}

const sameFinding = (a: OmcInstall, b: OmcInstall): boolean =>
  installKey({ ...a, refused: [] }) === installKey({ ...b, refused: [] });

function kept(good: OmcInstall, refused: readonly OmcFileRefusal[], blocking: readonly OmcFileRefusal[]): OmcInstall {
  const files = blocking.map(refusalWords).join('; ');
  return {
    ...good,
    source: `${good.source}; kept from before (${files}): not re-checked until the file can be read again`,
    refused,
    keptFrom: good,
  };
}
