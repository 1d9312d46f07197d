/**
 * docs/json-fields.md is the contract of every machine-readable output: this runs the real bundle's outputs over
 * trees rich enough to emit their fields (the real-OMC tree, two live Claude stand-ins on one session and a dead
 * one, a transcript, a bad state file, a nested root, a cancel made by omc-top, OMC 5.5's ultragoal and rate-limit
 * files, a state directory that is a file), collects every field path, and fails on a path the doc does not list, or
 * a path the doc lists that no run emitted (unless the doc marks it `(not emitted in tests: …)`).
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DEAD_PID, writeRegistry, writeTranscript } from '../helpers/claude-files.js';
import {
  FIXTURE,
  liveRalph,
  ralphStateFile,
  SESSION,
  waitFor,
  writeOmcJson,
  type TempProject,
} from '../helpers/fixtures.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { docFields, fieldPaths } from '../helpers/json-fields.js';
import { BIN } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';
import { assistant, prompt, stopBlock, toolResult } from '../store/claude/lines.js';

const COST = path.join(FIXTURE, '..', 'omc-5.5-cost');

/** A live stand-in for a Claude process (a sleep), ended after the test. */
function standIn(): number {
  const c: ChildProcess = spawn('sleep', ['600'], { stdio: 'ignore' });
  onTestFinished(() => {
    c.kill('SIGKILL');
  });
  return c.pid as number;
}

/** The real-OMC project made rich: what each field needs to be there at all. */
function richTree(p: TempProject, cfg: string): NodeJS.ProcessEnv {
  const home = path.join(p.dir, 'home');
  const omcHome = path.join(p.dir, 'omc-home');
  fs.mkdirSync(home, { recursive: true });
  const at = (sec: number) => new Date(Date.now() - 120_000 + sec * 1000).toISOString();
  // The ralph loop's Claude: two processes run the session (one waits for you, in tmux), with a transcript.
  const sid = SESSION.ralph;
  writeOmcJson(ralphStateFile(p.root, sid), liveRalph({ sessionId: sid, projectPath: p.dir, prompt: 'ralph fix' }));
  writeRegistry(cfg, standIn(), sid, {
    status: 'waiting',
    cwd: p.dir,
    waitingFor: 'permission prompt',
    tmux: 'main:@3',
    name: 'fix-login',
  });
  writeRegistry(cfg, standIn(), sid, { status: 'busy', cwd: p.dir });
  writeTranscript(cfg, p.dir, sid, [
    prompt(sid, at(0), 'ralph: make the tests pass'),
    ...assistant(sid, at(1), 'm1', 1, [{ type: 'tool_use', name: 'Bash', input: { command: 'npm test' } }]),
    toolResult(sid, at(2), 'Exit code 1', true),
    stopBlock(sid, at(5), '[RALPH LOOP - ITERATION 2/10] Work is NOT done. Continue.'),
    ...assistant(sid, at(10), 'm2', 2, [{ type: 'tool_use', name: 'Write', input: { file_path: '/p/a.ts' } }]),
  ]);
  // The autopilot's Claude is gone: an orphaned loop (an attention item).
  writeRegistry(cfg, DEAD_PID, SESSION.autopilot, { status: 'busy', cwd: p.dir, procStart: '12345' });
  // A state file OMC cannot parse: a problem line.
  fs.mkdirSync(path.join(p.root, 'state', 'sessions', 'bad-json'), { recursive: true });
  fs.writeFileSync(path.join(p.root, 'state', 'sessions', 'bad-json', 'ralph-state.json'), '{"active": tru');
  // A stale run OMC 5.6's watchdog would name next session.
  const stale = ralphStateFile(p.root, 'stale-run');
  writeOmcJson(stale, { active: true });
  const old = new Date(Date.now() - 5 * 3_600_000);
  fs.utimesSync(stale, old, old);
  // A nested root (hooks started in a subdirectory).
  writeOmcJson(ralphStateFile(path.join(p.dir, 'pkg', '.omc'), 'nested'), liveRalph({ sessionId: 'nested' }));
  // OMC 5.5's ultragoal plans and rate-limit daemon, as its own code wrote them.
  fs.cpSync(path.join(COST, 'ultragoal', '21-plan-blocked'), path.join(p.root, 'ultragoal'), { recursive: true });
  const daemon = path.join(COST, 'rate-limit-daemon', 'static-limit-screen', '02-later-poll-limited');
  fs.mkdirSync(path.join(omcHome, 'state'), { recursive: true });
  for (const f of ['rate-limit-daemon.json', 'rate-limit-daemon.pid'])
    fs.copyFileSync(path.join(daemon, f), path.join(omcHome, 'state', f));
  fs.mkdirSync(path.join(cfg, 'plugins', 'oh-my-claudecode'), { recursive: true });
  fs.copyFileSync(
    path.join(COST, 'usage-cache', '02-success', '.usage-cache-anthropic.json'),
    path.join(cfg, 'plugins', 'oh-my-claudecode', '.usage-cache-anthropic.json'),
  );
  return {
    PATH: process.env.PATH,
    HOME: home,
    OMC_HOME: omcHome,
    XDG_STATE_HOME: path.join(p.dir, 'xdg-state'),
    XDG_CONFIG_HOME: path.join(p.dir, 'xdg-config'),
    CLAUDE_CONFIG_DIR: cfg,
    CLAUDE_PLUGIN_ROOT: '',
    NO_COLOR: '1',
  };
}

const bundle = (args: string[], cwd: string, env: NodeJS.ProcessEnv) =>
  spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8', timeout: scaled(60_000) });

const json = (args: string[], cwd: string, env: NodeJS.ProcessEnv): unknown => {
  const r = bundle(args, cwd, env);
  expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout);
};

/**
 * The bundle's `omc-top ARGS` started in `cwd`, what it writes gathered in `said`; after the test, still running, it
 * is stopped with `stop` and waited for.
 */
function startBundle(args: string[], cwd: string, env: NodeJS.ProcessEnv, stop: NodeJS.Signals) {
  const c = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => c.once('exit', resolve));
  onTestFinished(async () => {
    if (c.exitCode === null && c.signalCode === null) c.kill(stop);
    await exited;
  });
  const said = { out: '', err: '' };
  c.stdout.on('data', (d: Buffer) => (said.out += d.toString('utf8')));
  c.stderr.on('data', (d: Buffer) => (said.err += d.toString('utf8')));
  return { c, exited, said };
}

/** `watch --json` lines of the bundle until `done` says so; each line's paths under its type (`ready.needsYou`). */
async function watchLines(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  done: (lines: Record<string, unknown>[]) => boolean,
  meanwhile?: (lines: Record<string, unknown>[]) => void,
): Promise<Record<string, unknown>[]> {
  // Gone before the project is removed: a watch still running writes its status cache under it.
  const { c, exited, said } = startBundle(['watch', '--json', ...args], cwd, env, 'SIGKILL');
  const lines = () =>
    said.out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  await waitFor(
    () => {
      meanwhile?.(lines());
      return done(lines());
    },
    { timeoutMs: 60_000, what: `watch --json ${args.join(' ')} (${said.err})` },
  );
  // Stopped as a script stops it, and gone before the project is removed (its status cache lives under it).
  c.kill('SIGTERM');
  await exited;
  return lines();
}

/** `omc-top serve` of the bundle on a loopback port: its base URL and token, stopped after the test. */
async function serve(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ base: string; token: string }> {
  const { said } = startBundle(['serve', '--port', '0', ...args], cwd, env, 'SIGTERM');
  const url = await waitFor(() => /(http:\/\/127\.0\.0\.1:\d+)\/#(\S+)/.exec(said.out), {
    timeoutMs: 60_000,
    what: `serve's address (${said.err})`,
  });
  return { base: url[1] as string, token: url[2] as string };
}

/** The `/events` stream of a serve: each event as `[name, data]` (`message` for a whole picture), read until `done`. */
async function serveEvents(
  at: { base: string; token: string },
  done: (events: Array<[string, unknown]>) => boolean,
  meanwhile: (events: Array<[string, unknown]>) => void,
): Promise<Array<[string, unknown]>> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), scaled(60_000));
  const res = await fetch(`${at.base}/events`, { headers: { 'x-omc-top-token': at.token }, signal: abort.signal });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: Array<[string, unknown]> = [];
  let text = '';
  try {
    while (!done(events)) {
      // A stream that never brings the condition is cut by the timer: the read rejects, and the test says why.
      const { value, done: ended } = await reader.read().catch((e: Error) => {
        throw new Error(`serve /events: ${e.message}; got ${JSON.stringify(events).slice(0, 2000)}`);
      });
      if (ended) throw new Error('serve /events ended');
      text += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = text.indexOf('\n\n')) !== -1) {
        const block = text.slice(0, end).split('\n');
        text = text.slice(end + 2);
        const name = block.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
        const data = block.find((l) => l.startsWith('data: '))?.slice(6);
        if (data) events.push([name, JSON.parse(data) as unknown]);
      }
      meanwhile(events);
    }
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return events;
}

/** A POST of the serve API: its status and JSON body. */
async function servePost(at: { base: string; token: string }, route: string, body: unknown) {
  const res = await fetch(`${at.base}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-omc-top-token': at.token },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Paths not looked into, per output: the doc's `map` rows (keys are data) and `as` rows (fields listed elsewhere). */
function mapsOf(fields: ReturnType<typeof docFields>, output: string): Set<string> {
  return new Set(
    (fields.get(output) ?? []).filter((f) => f.type.startsWith('map') || f.type.startsWith('as ')).map((f) => f.path),
  );
}

describe('docs/json-fields.md', { timeout: scaled(240_000) }, () => {
  it('lists every field the machine-readable outputs emit, and each field it lists is emitted', async ({
    project: p,
    claudeDir: cfg,
    tempDir,
  }) => {
    const doc = docFields();
    const seen = new Map<string, Set<string>>();
    const raw: Array<[string, string, unknown]> = [];
    const collect = (output: string, value: unknown, prefix = '') => {
      raw.push([output, prefix, value]);
      const set = seen.get(output) ?? new Set<string>();
      seen.set(output, set);
      fieldPaths(value, prefix, set, mapsOf(doc, output));
    };
    const env = richTree(p, cfg);

    // A cancel made by omc-top (its record: the words every other process says), on a loop of its own whose Claude
    // was in its turn and is not seen to stop: `stopping`, in flight for as long as the test takes (not a window).
    const cancelled = 'dddddddd-1111-4222-8333-000000000004';
    writeOmcJson(ralphStateFile(p.root, cancelled), liveRalph({ sessionId: cancelled, projectPath: p.dir }));
    writeRegistry(cfg, standIn(), cancelled, { status: 'busy', cwd: p.dir, statusUpdatedAt: Date.now() - 3_600_000 });
    collect('cancel', json(['cancel', cancelled, '--json', '--root', p.root], p.dir, env));
    // Its failures: one object, the shape an internal error has too (commands/internal-error.ts).
    const none = bundle(['cancel', 'no-such-session', '--json', '--root', p.root], p.dir, env);
    expect(none.status, none.stderr).toBe(4);
    collect('cancel', JSON.parse(none.stdout));

    // doctor --json: exit 1 when a check is broken (this tree has a bad state file), its document all the same.
    const doctor = bundle(['doctor', '--json', '--root', p.root], p.dir, env);
    expect([0, 1], doctor.stderr).toContain(doctor.status);
    // Each check's `data` under its id (`checks[node].data.version`): what a field means depends on the check.
    const checks = (JSON.parse(doctor.stdout) as { checks: Array<{ id: string; data: unknown }> }).checks;
    collect('doctor', { ...(JSON.parse(doctor.stdout) as object), checks: checks.map((c) => ({ ...c, data: {} })) });
    for (const c of checks) collect('doctor', c.data, `checks[${c.id}].data`);

    // --json: the rich tree, then the same with omc-top's state directory a file (its problem) and damaged records.
    collect('json', json(['--json', '--root', p.root], p.dir, env));
    const badState = path.join(tempDir('omc-top-fields-'), 'state-file');
    fs.writeFileSync(badState, 'not a directory');
    collect('json', json(['--json', '--root', p.root], p.dir, { ...env, XDG_STATE_HOME: badState }));

    // watch --json: with --snapshot and --rows until ready, then changes: an iteration (a transition, a row again),
    // and a new loop whose Claude waits for you (a transition that raises an item).
    const file = ralphStateFile(p.root, SESSION.ralph);
    const waiting = 'eeeeeeee-1111-4222-8333-000000000005';
    let changed = false;
    const lines = await watchLines(
      ['--snapshot', '--rows', '--root', p.root],
      p.dir,
      env,
      (l) =>
        changed &&
        l.some((x) => x.type === 'transition' && x.kind === 'iteration') &&
        l.some((x) => x.type === 'transition' && x.need !== null),
      (l) => {
        if (changed || !l.some((x) => x.type === 'ready')) return;
        changed = true;
        const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
        writeOmcJson(file, { ...v, iteration: 4 });
        writeRegistry(cfg, standIn(), waiting, { status: 'waiting', cwd: p.dir, waitingFor: 'permission prompt' });
        writeOmcJson(ralphStateFile(p.root, waiting), liveRalph({ sessionId: waiting, projectPath: p.dir }));
      },
    );
    // Without --snapshot and --rows: transitions only (the same fields).
    const plain = await watchLines(
      [],
      p.dir,
      env,
      (l) => l.length > 0,
      (l) => {
        if (l.length > 0) return;
        const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
        writeOmcJson(file, { ...v, iteration: Number(v.iteration) + 1 });
      },
    );
    // Started where OMC has made no .omc yet: the root line saying it waits, then the one saying it moved (a `git
    // init` makes the project's own .omc the place).
    const unmade = tempDir('omc-top-fields-unmade-');
    const movedTo = (l: Record<string, unknown>[]) => l.some((x) => x.type === 'root' && x.was !== null);
    const waited = await watchLines([], unmade, env, movedTo, (l) => {
      if (l.some((x) => x.type === 'root') && !fs.existsSync(path.join(unmade, '.git')))
        execFileSync('git', ['init', '-q', unmade]);
    });
    for (const l of waited) collect('watch', l, String(l.type));
    for (const l of plain) collect('watch', l, String(l.type));
    for (const l of lines) collect('watch', l, String(l.type));

    // hooks --json: status before and after install, install, uninstall.
    const hooks = (verb: string) => json(['hooks', verb, '--json', '--cwd', p.dir], p.dir, env);
    collect('hooks', hooks('status'), 'status');
    collect('hooks', hooks('install'), 'install');
    collect('hooks', hooks('status'), 'status');
    // A settings file Claude does not load (a disableAllHooks that is not a boolean): status fails (exit 1) and
    // lists it.
    const shared = path.join(p.dir, '.claude', 'settings.json');
    fs.writeFileSync(shared, '{"disableAllHooks": "yes"}');
    const odd = bundle(['hooks', 'status', '--json', '--cwd', p.dir], p.dir, env);
    expect(odd.status).toBe(1);
    collect('hooks', JSON.parse(odd.stdout), 'status');
    fs.rmSync(shared);
    collect('hooks', hooks('uninstall'), 'uninstall');

    // wiki search --json: the real-OMC wiki.
    collect('wiki-search', json(['wiki', 'search', 'checkout', '--json', '--root', p.root], p.dir, env), 'results');

    // serve's API: the whole picture, the deltas of the same changes as watch's (an iteration, a new loop that
    // waits for you), a cancel planned and confirmed, an acknowledgement, a refusal.
    const at = await serve(['--root', p.root], p.dir, env);
    const bump = () => {
      const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      writeOmcJson(file, { ...v, iteration: Number(v.iteration) + 1 });
    };
    const fresh = 'ffffffff-1111-4222-8333-000000000006';
    // Followed as the page follows it: the root's id and needs from the whole picture, then from each delta.
    type Need = { id: string };
    type Row = { target: string; session: string };
    type Delta = { changed: Array<{ id: string; set?: { needs?: Need[] }; rows?: { put: Row[] } }> };
    let rootId = '';
    let needs: Need[] = [];
    let target: string | undefined;
    let bumped = false;
    let handled = 0;
    // Until a delta has set the root's needs with the new session's (its Claude waits for a permission): the first
    // picture may come before or after the other needs were judged, and the new row and its need may come in one
    // delta or in two, as the machine's load has it.
    let rootSet = false;
    const events = await serveEvents(
      at,
      () => target !== undefined && rootSet,
      (e) => {
        for (const [name, data] of e.slice(handled)) {
          if (name === 'message') {
            const r = (data as { roots: Array<{ id: string; needs: Need[]; rows: Row[] }> }).roots[0];
            rootId = r?.id ?? '';
            needs = r?.needs ?? [];
            target = r?.rows.find((x) => x.session === fresh)?.target;
          } else
            for (const c of (data as Delta).changed.filter((x) => x.id === rootId)) {
              needs = c.set?.needs ?? needs;
              if (c.set?.needs?.some((n) => n.id.includes(fresh))) rootSet = true;
              target = c.rows?.put.find((x) => x.session === fresh)?.target ?? target;
            }
        }
        handled = e.length;
        if (bumped || e.length === 0) return;
        bumped = true;
        bump();
        writeRegistry(cfg, standIn(), fresh, { status: 'waiting', cwd: p.dir, waitingFor: 'permission prompt' });
        writeOmcJson(ralphStateFile(p.root, fresh), liveRalph({ sessionId: fresh, projectPath: p.dir }));
      },
    );
    for (const [name, data] of events) collect('serve', data, name === 'delta' ? 'delta' : 'events');
    // A connection opened later starts with the whole picture as it is then: with its needs now, with them
    // acknowledged (and what the page's answers led to) at the end.
    const whole = async () =>
      (
        await serveEvents(
          at,
          (e) => e.length > 0,
          () => undefined,
        )
      )[0]?.[1];
    collect('serve', await whole(), 'events');
    const planned = await servePost(at, '/api/cancel/plan', { root: rootId, session: target });
    expect(planned.status, JSON.stringify(planned.body)).toBe(200);
    collect('serve', planned.body, 'plan');
    const confirmed = await servePost(at, '/api/confirm', { plan: planned.body.plan });
    collect('serve', confirmed.body, 'confirm');
    const acked = await servePost(at, '/api/ack', { root: rootId, ids: needs.map((n) => n.id) });
    expect(acked.status, JSON.stringify(acked.body)).toBe(200);
    collect('serve', acked.body, 'ack');
    collect('serve', await whole(), 'events');
    const refused = await servePost(at, '/api/confirm', { plan: 'no-such-plan' });
    expect(refused.status).toBe(404);
    collect('serve', refused.body, 'error');

    // What each output emitted, for writing the doc: JSON_FIELDS_DUMP=<file>.
    if (process.env.JSON_FIELDS_DUMP) fs.writeFileSync(process.env.JSON_FIELDS_DUMP, JSON.stringify(raw));
    const problems: string[] = [];
    for (const [output, paths] of seen) {
      const listed = doc.get(output);
      if (!listed) {
        problems.push(`${output}: no table (<!-- json-fields: ${output} -->)`);
        continue;
      }
      const names = new Set(listed.map((f) => f.path));
      for (const f of [...paths].sort()) if (!names.has(f)) problems.push(`${output}: emitted, not in the doc: ${f}`);
      for (const f of listed)
        if (!f.notInTests && !paths.has(f.path)) problems.push(`${output}: in the doc, never emitted: ${f.path}`);
    }
    for (const output of doc.keys()) if (!seen.has(output)) problems.push(`${output}: a table no run fills`);
    expect(problems).toEqual([]);
  });
});
