/**
 * Runs one store operation in a child process, for inputs that used to hang
 * the process for good (a FIFO read blocks the whole thread, so an in-process
 * test could never time out) or bloat it (a link to /dev/zero). The parent
 * (runInChild) kills it after a bound and reports that as a hang.
 *
 *   node --import tsx test/helpers/hostile-child.ts '<json op>'
 */
import { acquireFileLock } from '../../src/io/file-lock.js';
import { acquireStateLock } from '../../src/store/cancel/mutation-lock.js';
import { readTextSync } from '../../src/io/safe-fs/index.js';
import { resolveOmcRoot } from '../../src/store/root.js';
import { EventsTail } from '../../src/store/teams/events-tail.js';

type Op =
  | { op: 'file-lock'; root: string; rel: string; timeoutMs?: number }
  | { op: 'state-lock'; root: string; rel: string }
  | { op: 'read'; root: string; rel: string }
  | { op: 'events-tail'; root: string; rel: string }
  | { op: 'resolve-root'; cwd: string; home: string; env?: Record<string, string>; realGit?: boolean };

const NO_GIT = { topLevel: () => null, superproject: () => null, remoteOrigin: () => null, commonDir: () => null };

async function run(o: Op): Promise<unknown> {
  switch (o.op) {
    case 'file-lock': {
      const l = await acquireFileLock(o.root, o.rel, { timeoutMs: o.timeoutMs ?? 300 });
      l.release();
      return 'acquired';
    }
    case 'state-lock': {
      const l = await acquireStateLock(o.root, o.rel, { attempts: 5 });
      l.release();
      return 'acquired';
    }
    case 'read': {
      const r = readTextSync(o.root, o.rel);
      return r.ok ? { text: r.text } : { failed: r.message };
    }
    case 'events-tail': {
      const t = new EventsTail(o.root, o.rel);
      t.refresh();
      return { events: t.events.map((e) => e.text), seen: t.seen, problem: t.problem };
    }
    case 'resolve-root': {
      const r = resolveOmcRoot({
        cwd: o.cwd,
        home: o.home,
        tmpdir: '/nonexistent-tmp',
        env: o.env ?? {},
        git: o.realGit ? undefined : NO_GIT,
      });
      return { root: r.root, rule: r.rule, explain: r.explain, notices: r.notices };
    }
  }
}

const o = JSON.parse(process.argv[2] ?? '{}') as Op;
run(o).then(
  (value) => process.stdout.write(JSON.stringify({ value, maxRssMb: process.resourceUsage().maxRSS / 1024 })),
  (e: Error) =>
    process.stdout.write(
      JSON.stringify({ error: e.message, name: e.name, maxRssMb: process.resourceUsage().maxRSS / 1024 }),
    ),
);
