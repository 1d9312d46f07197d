// A long-lived process that runs real OMC code many times, each time as Claude Code or OMC's MCP
// server would, with the clock frozen per call: a hook script (JSON on stdin, the hook's env, cwd =
// the project), one of OMC's MCP state tools (dist/tools/state-tools.js, cwd = the project), or
// omc-top's own `cancel` command. Starting node and importing OMC's dist costs seconds per process
// on a loaded machine; here each hook script is evaluated afresh per call (a new module instance)
// while its libraries stay loaded. sequences.ts checks this path against real hook processes.
// Forked with `--import tsx` so omc-top's TypeScript sources load too.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { installFrozenClock } from '../hook-runner/freeze-clock.mjs';

let now = 0;
installFrozenClock(() => now);
const require = createRequire(import.meta.url);
const realWrite = process.stdout.write.bind(process.stdout);
const realLog = console.log;
const realArgv1 = process.argv[1];
const baseEnv = { ...process.env };
const baseCwd = process.cwd();
let n = 0;

function enter({ cwd, env, frozenNow }) {
  now = frozenNow;
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, env);
  process.chdir(cwd);
}
function leave() {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, baseEnv);
  process.chdir(baseCwd);
  process.argv[1] = realArgv1;
}

/**
 * Some scripts run only "when executed directly" (`import.meta.url === pathToFileURL(argv[1])`): they
 * run from a copy beside the original (same directory, so their relative imports resolve the same),
 * with argv[1] naming the copy. The others are imported with a per-call query (a fresh instance).
 */
function entryOf(script) {
  const text = fs.readFileSync(script, 'utf8');
  if (!/import\.meta\.url\s*===\s*pathToFileURL\(process\.argv\[1\]\)/.test(text)) return { url: null, copy: null };
  // Beside the real file: node gives a module its real path as import.meta.url, so a copy named through a symlinked
  // node_modules (a git worktree sharing the checkout's) never equalled argv[1], and the script silently did nothing.
  const copy = path.join(
    path.dirname(fs.realpathSync(script)),
    `.omc-top-run-${process.pid}-${n}-${path.basename(script)}`,
  );
  fs.writeFileSync(copy, text);
  return { url: pathToFileURL(copy).href, copy };
}

async function runHook({ script, cwd, env, stdin, frozenNow }) {
  enter({ cwd, env, frozenNow });
  const input = Readable.from([Buffer.from(stdin)]);
  Object.defineProperty(process, 'stdin', { configurable: true, get: () => input });
  const before = {
    uncaughtException: process.listeners('uncaughtException'),
    unhandledRejection: process.listeners('unhandledRejection'),
  };
  let out = '';
  let resolve;
  const done = new Promise((r) => (resolve = r));
  const capture = (text) => {
    out += text;
    if (out.includes('\n')) resolve();
  };
  process.stdout.write = (chunk, enc, cb) => {
    capture(String(chunk));
    const f = typeof enc === 'function' ? enc : cb;
    if (f) setImmediate(f);
    return true;
  };
  console.log = (...a) => capture(a.map(String).join(' ') + '\n');
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    resolve();
  }, 60_000);
  let copy = null;
  try {
    n += 1;
    if (script.endsWith('.cjs')) {
      delete require.cache[require.resolve(script)];
      require(script);
    } else {
      const entry = entryOf(script);
      copy = entry.copy;
      if (copy) process.argv[1] = copy;
      await import(entry.url ?? `${pathToFileURL(script).href}?case=${n}`);
    }
    await done;
    // Let the script's trailing work (a write after its answer, a lock release) run.
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
  } finally {
    clearTimeout(timer);
    if (copy) fs.rmSync(copy, { force: true });
    process.stdout.write = realWrite;
    console.log = realLog;
    for (const ev of Object.keys(before))
      for (const l of process.listeners(ev)) if (!before[ev].includes(l)) process.removeListener(ev, l);
    leave();
  }
  if (timedOut)
    throw new Error(`${path.basename(script)} printed nothing within 60 s (output: ${JSON.stringify(out)})`);
  return out;
}

const tools = new Map();
async function runTool({ root, tool, args, cwd, env, frozenNow }) {
  if (!tools.has(root)) {
    const m = await import(pathToFileURL(path.join(root, 'dist', 'tools', 'state-tools.js')).href);
    const all = Array.isArray(m.stateTools)
      ? m.stateTools
      : Object.values(m).filter((x) => x && typeof x === 'object' && 'handler' in x);
    tools.set(root, all);
  }
  const t = tools.get(root).find((x) => x.name === tool);
  if (!t) throw new Error(`no state tool ${tool} in ${root}`);
  enter({ cwd, env, frozenNow });
  try {
    const res = await t.handler(args);
    return { text: (res?.content ?? []).map((c) => c.text).join('\n'), isError: res?.isError === true };
  } finally {
    leave();
  }
}

let cancelMod = null;
async function runCancel({ repo, argv, cwd, env, frozenNow }) {
  cancelMod ??= await import(pathToFileURL(path.join(repo, 'src', 'commands', 'cancel.ts')).href);
  enter({ cwd, env, frozenNow });
  let out = '';
  try {
    const code = await cancelMod.runCancelCommand(argv, {
      out: (t) => void (out += t),
      err: (t) => void (out += t),
      cwd,
      now: () => now,
      env,
    });
    return { code, out };
  } finally {
    leave();
  }
}

let queue = Promise.resolve();
process.on('message', (msg) => {
  queue = queue.then(async () => {
    try {
      const out =
        msg.op === 'tool' ? await runTool(msg) : msg.op === 'cancel' ? await runCancel(msg) : await runHook(msg);
      process.send({ id: msg.id, out });
    } catch (e) {
      process.send({ id: msg.id, error: String(e?.stack ?? e) });
    }
  });
});
