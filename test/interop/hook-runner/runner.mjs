// A long-lived process that runs one OMC Stop hook script many times, each time as Claude Code
// runs it (JSON on stdin, the hook's env, cwd = the project), with the clock frozen per case.
// Starting node and importing OMC's dist costs ~0.3–0.5 s per hook process; here the script is
// re-evaluated per case (a fresh module instance: `?case=N` for ESM, a cleared require cache for
// CJS) while its libraries stay loaded. The test checks this path against real spawned runs.
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { installFrozenClock } from './freeze-clock.mjs';

let now = 0;
installFrozenClock(() => now);
const require = createRequire(import.meta.url);
const realWrite = process.stdout.write.bind(process.stdout);
const realLog = console.log;
const baseEnv = { ...process.env };
let n = 0;

async function runCase({ script, cwd, env, stdin, frozenNow }) {
  now = frozenNow;
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, env);
  process.chdir(cwd);
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
  // Generous: a loaded 2-core box may be slow, but a hook that never answers is a failure, not a "stop".
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    resolve();
  }, 60_000);
  try {
    n += 1;
    if (script.endsWith('.cjs')) {
      delete require.cache[require.resolve(script)];
      require(script);
    } else {
      await import(`${pathToFileURL(script).href}?case=${n}`);
    }
    await done;
    // Let the hook's `finally` (clearing its safety timer) and lock releases run.
    await new Promise((r) => setImmediate(r));
  } finally {
    clearTimeout(timer);
    process.stdout.write = realWrite;
    console.log = realLog;
    for (const ev of Object.keys(before))
      for (const l of process.listeners(ev)) if (!before[ev].includes(l)) process.removeListener(ev, l);
    for (const k of Object.keys(process.env)) delete process.env[k];
    Object.assign(process.env, baseEnv);
  }
  if (timedOut) throw new Error(`the hook printed no decision within 60 s (output so far: ${JSON.stringify(out)})`);
  return out.split('\n')[0];
}

let queue = Promise.resolve();
process.on('message', (msg) => {
  queue = queue.then(async () => {
    try {
      process.send({ id: msg.id, out: await runCase(msg) });
    } catch (e) {
      process.send({ id: msg.id, error: String(e?.stack ?? e) });
    }
  });
});
