/**
 * `watch --json --rows`: every session's fleet row, once at start and again
 * whenever it changes (a session that goes gets `row: null`). Rows are
 * compared by their JSON, so a rebuilt snapshot with nothing new prints
 * nothing. Rebuilt once per turn of the loop however many cells changed.
 */
import { rowLine } from './json-line.js';
import type { OmcStore } from '../store/store.js';
import { rowOf } from './row.js';

export function startRowFeed(
  store: OmcStore,
  project: string,
  out: (line: string) => void,
  now: () => number,
): () => void {
  const last = new Map<string, string>();
  const emit = () => {
    const at = now();
    const claude = store.claude.getSnapshot().bySession;
    const seen = new Set<string>();
    for (const s of store.sessions.getSnapshot().sessions) {
      seen.add(s.id);
      const row = rowOf(s, claude.get(s.id), at);
      const json = JSON.stringify(row);
      if (last.get(s.id) === json) continue;
      last.set(s.id, json);
      out(rowLine(project, s.id, row, at) + '\n');
    }
    for (const id of [...last.keys()]) {
      if (seen.has(id)) continue;
      last.delete(id);
      out(rowLine(project, id, null, at) + '\n');
    }
  };
  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      emit();
    });
  };
  emit();
  const unsubs = [store.sessions.subscribe(schedule), store.claude.subscribe(schedule)];
  return () => unsubs.forEach((u) => u());
}
