/** The monitor's helper threads run at the lowest priority; its main thread keeps the one it was started with. */
import fs from 'node:fs';
import { describe, expect, it } from '../helpers/it.js';
import { HELPER_NICE, helperThreadIds, lowerHelperThreads } from '../../src/terminal/helper-priority.js';
import { fieldsAfterName } from '../../src/io/process-start.js';

/** Each thread's nice value, read from /proc/<pid>/task/<tid>/stat (field 19). */
function niceByThread(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended while listed
    }
    // fieldsAfterName's [0] is field 3, so field 19 (nice) is [16].
    out.set(Number(tid), Number(fieldsAfterName(stat)?.[16]));
  }
  return out;
}

describe('helper thread priority', () => {
  it('lists every thread of the process but the main one', () => {
    const tasks = {
      ok: true as const,
      entries: ['100', '101', '102', 'x'].map((name) => ({ name, kind: 'dir' as const })),
    };
    expect(helperThreadIds(100, tasks as never)).toEqual([101, 102]);
    expect(helperThreadIds(100, { ok: false, code: 'missing', message: 'no /proc' } as never)).toEqual([]);
  });

  it('renices each helper and goes on past one that cannot be', () => {
    const seen: Array<[number, number]> = [];
    const lowered = lowerHelperThreads((tid, nice) => {
      seen.push([tid, nice]);
      if (seen.length === 1) throw new Error('ESRCH');
    });
    // Node runs V8's helper threads beside the main one (the list is not compared with a second listing: a
    // thread may start or end between the two).
    expect(seen.length).toBeGreaterThanOrEqual(4);
    expect(seen.every(([, nice]) => nice === HELPER_NICE)).toBe(true);
    expect(lowered).toBe(seen.length - 1);
    expect(seen.some(([tid]) => tid === process.pid)).toBe(false);
  });

  it('the running monitor: its main thread at the priority it was given, every other thread at 19', async ({
    project,
    pty,
  }) => {
    const h = pty({ cwd: project.dir, cols: 100, rows: 24 });
    await h.waitForText(/ live$/m, 20_000);
    const nice = niceByThread(h.pty.pid);
    expect(nice.get(h.pty.pid)).toBe(niceByThread(process.pid).get(process.pid));
    const helpers = [...nice].filter(([tid]) => tid !== h.pty.pid);
    expect(helpers.length).toBeGreaterThanOrEqual(4);
    expect(helpers.filter(([, n]) => n !== HELPER_NICE)).toEqual([]);
  });
});
