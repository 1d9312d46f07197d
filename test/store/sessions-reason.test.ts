/**
 * One mode, one reason. A mode's `reason` (--json, the detail's "OMC registry" line) says what OMC's registry and the
 * file say; what the Stop hook does is the verdict's (`verdict.rule` / `detail`). On the real fixture's session
 * 88727f43 judged by 5.5.0's book, the ultrawork has the rule `retired`, and its reason said "not touched for over
 * 2 h: the Stop hook no longer enforces it": two reasons for one mode. It now says the retirement, on every surface.
 */
import { describe, expect, it } from '../helpers/it.js';
import { makeOmcInstall } from '../../src/store/omc-install.js';
import { buildJsonReport } from '../../src/feeds/json-report.js';
import { detailLines } from '../../src/panes/sessions/detail.js';
import { SESSION } from '../helpers/fixtures.js';
import type { RulesVersion } from '../../src/store/verdict/index.js';

type JsonMode = { mode: string; reason: string; verdict: { rule: string } };

describe("a mode's reason and its verdict's rule", () => {
  for (const rules of ['5.5.0', '4.15.10', '4.4.4'] as RulesVersion[])
    it(`agree on the real fixture, judged by ${rules}'s book`, ({ project: p, newStore }) => {
      const store = newStore({ root: p.root, watch: 'none', projectDir: p.dir, omc: makeOmcInstall(rules, 'test') });
      store.start();
      const snap = store.sessions.getSnapshot();
      const json = JSON.parse(
        JSON.stringify(buildJsonReport({ root: p.root, rootRule: 't', notices: [], sessions: snap })),
      ) as { sessions: Array<{ id: string; modes: JsonMode[] }> };
      for (const s of snap.sessions) {
        const text = detailLines(s, snap.derivedAt, 1_000).map((l) => l.text);
        for (const m of s.modes) {
          // The registry's reason never speaks for the Stop hook: the verdict does.
          expect(m.reason, `${s.id} ${m.mode}`).not.toMatch(/stop hook/i);
          // The detail's registry line and --json carry the same reason.
          expect(text).toContain(`  OMC registry: ${m.active ? 'active' : 'inactive'} (${m.reason})`);
          expect(json.sessions.find((x) => x.id === s.id)?.modes.find((x) => x.mode === m.mode)?.reason).toBe(m.reason);
          if (m.verdict.rule === 'retired') expect(m.reason, `${s.id} ${m.mode}`).toMatch(/^retired in OMC 5\.5\.0/);
        }
      }
      const ultrawork = snap.sessions.find((s) => s.id === SESSION.ralph)!.modes.find((m) => m.mode === 'ultrawork')!;
      if (rules === '5.5.0')
        expect([ultrawork.verdict.rule, ultrawork.reason]).toEqual([
          'retired',
          'retired in OMC 5.5.0: its registry no longer lists ultrawork',
        ]);
      // Under 4.x the same file is judged stale by the hook, and the registry says only what the file shows.
      else expect([ultrawork.verdict.rule, ultrawork.reason]).toEqual(['stale', 'not touched for over 2 h']);
    });
});
