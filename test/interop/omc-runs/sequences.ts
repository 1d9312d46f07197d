/**
 * Runs one driven sequence against one real OMC version: a fresh git project and HOME at a fixed
 * path (state digests cover absolute paths, so a fixed path keeps a run reproducible byte for
 * byte), then each step at the frozen time T0 + t:
 *   prompt        the UserPromptSubmit hooks of hooks.json (keyword detector, skill injector)
 *   skill         the Skill tool's PreToolUse hooks and the PostToolUse post-tool-verifier
 *   stop          the Stop hook (persistent-mode), after OMC's own reader (state_list_active) has
 *                 been asked about every session, and after `beforeStop` (the tests' omc-top views)
 *   signal        a cancel signal as omc-top writes it (src/store/cancel/signal.ts), session or legacy
 *   omctop-cancel omc-top's own `cancel` command
 *   state         one of OMC's MCP state tools (state_write, state_clear, state_list_active)
 *   skill-cancel  OMC's cancel skill's flow: state_list_active(session), then state_clear per listed
 *                 mode in the skill's order, then state_clear(skill-active)
 *   patch         merge fields into an existing .omc file (stands for many turns of a long loop)
 *   transcript    a transcript line carrying a context use, as the hook reads it
 *   turn          Claude Code's transcript lines of a turn (its prompt, and a Stop hook block)
 * Every step records its input, its output and what it changed in `.omc` and HOME.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { transcriptRel } from '../../../src/store/claude/config-dir.js';
import { autopilotSignal, genericSignal, serializeSignal, signalRel } from '../../../src/store/cancel/signal.js';
import { transcriptPercent } from '../../../src/store/verdict/payload.js';
import { prompt as promptLine, stopBlock } from '../../store/claude/lines.js';
import { hookEnv, hookScripts, stopDecision, STOP_SCRIPT, type OmcRunner, type OmcVersion } from './omc.js';
import { SESSIONS, T0, type Sequence, type Step } from './sequence-defs.js';

export interface Snapshot {
  [rel: string]: string;
}

export interface StepRecord {
  t: number;
  op: string;
  s?: string | null;
  input: Record<string, unknown>;
  out: Record<string, unknown>;
  /** Files written (text) or removed (null), as `omc/<rel under .omc>` or `home/<rel under HOME>`. */
  effect: Record<string, string | null>;
  /** Stop steps: the hook's decision, and what state_list_active said of each session just before. */
  stop?: { decision: 'block' | 'stop'; mode: string | null; readers: Record<string, string> };
}

export interface StopContext {
  version: OmcVersion;
  cwd: string;
  home: string;
  sessionId: string;
  now: number;
  payload: Record<string, unknown>;
  transcriptPercent: number | null;
  readers: Record<string, string>;
}

/** Where a sequence runs: a fixed path per (version, sequence) under the system temp dir. */
export function sequenceBase(version: string, name: string): string {
  return path.join(os.tmpdir(), 'omc-top-seq', version, name.replace(/[^A-Za-z0-9_.+-]+/g, '_'));
}

const SKILL_CANCEL_ORDER = [
  'autopilot',
  'ralph',
  'ultrawork',
  'ultraqa',
  'ultragoal',
  'swarm',
  'ultrapilot',
  'pipeline',
  'team',
  'omc-teams',
  'ralplan',
  'self-improve',
];

function walk(dir: string, prefix: string, out: Snapshot): void {
  let ents: fs.Dirent[];
  try {
    ents = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of ents) {
    const abs = path.join(dir, e.name);
    const rel = `${prefix}/${e.name}`;
    if (e.isDirectory()) walk(abs, rel, out);
    else if (e.isFile()) {
      try {
        out[rel] = fs.readFileSync(abs, 'utf8');
      } catch {
        /* gone meanwhile */
      }
    }
  }
}

export function snapshot(cwd: string, home: string): Snapshot {
  const out: Snapshot = {};
  walk(path.join(cwd, '.omc'), 'omc', out);
  walk(home, 'home', out);
  return out;
}

function diff(a: Snapshot, b: Snapshot): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(b)) if (a[k] !== v) out[k] = v;
  for (const k of Object.keys(a)) if (!(k in b)) out[k] = null;
  return out;
}

/** Every path a record carries, with the run's directories as placeholders. */
export function placeholders(text: string, cwd: string, home: string, root: string): string {
  return text.split(cwd).join('<CWD>').split(home).join('<HOME>').split(root).join('<PLUGIN_ROOT>');
}

export async function runSequence(
  version: OmcVersion,
  seq: Sequence,
  runner: OmcRunner,
  opts: { beforeStop?: (c: StopContext) => void | Promise<void>; keep?: boolean } = {},
): Promise<StepRecord[]> {
  const base = sequenceBase(version, seq.name);
  fs.rmSync(base, { recursive: true, force: true });
  const cwd = path.join(base, 'project');
  const home = path.join(base, 'home');
  fs.mkdirSync(cwd, { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  spawnSync('git', ['init', '-q', cwd], { stdio: 'ignore' });
  const omc = path.join(cwd, '.omc');
  const env = hookEnv(version, home);
  const sid = (alias: string) => SESSIONS[alias] ?? alias;
  const transcript = (alias: string) => path.join(home, '.claude', transcriptRel(cwd, sid(alias)));
  const aliases = [...new Set(seq.steps.flatMap((st) => ('s' in st && st.s ? [st.s] : [])))];
  const payloadOf = (event: string, alias: string) => ({
    session_id: sid(alias),
    transcript_path: transcript(alias),
    cwd,
    permission_mode: 'default',
    hook_event_name: event,
  });
  const tool = (name: string, args: Record<string, unknown>, now: number) =>
    runner.tool(version, name, args, { cwd, home, now });
  const records: StepRecord[] = [];
  /** The context use the hook reads: the transcript's last 4 KiB. */
  const pctOf = (alias: string): number | null => {
    let buf: Buffer;
    try {
      buf = fs.readFileSync(transcript(alias));
    } catch {
      return null;
    }
    return transcriptPercent(buf.subarray(Math.max(0, buf.length - 4096)).toString('utf8'));
  };
  let prev = snapshot(cwd, home);

  for (const step of seq.steps) {
    const now = T0 + step.t;
    const rec: StepRecord = { t: step.t, op: step.op, input: {}, out: {}, effect: {} };
    if ('s' in step) rec.s = step.s;
    await runStep(step, rec, now);
    const cur = snapshot(cwd, home);
    rec.effect = diff(prev, cur);
    prev = cur;
    records.push(rec);
  }
  if (!opts.keep) fs.rmSync(base, { recursive: true, force: true });
  return records;

  async function runStep(step: Step, rec: StepRecord, now: number): Promise<void> {
    switch (step.op) {
      case 'prompt': {
        const stdin = JSON.stringify({ ...payloadOf('UserPromptSubmit', step.s), prompt: step.text });
        rec.input = { prompt: step.text };
        const outs: string[] = [];
        for (const script of hookScripts(version, 'UserPromptSubmit'))
          outs.push((await runner.hook(script, { cwd, env, stdin, now })).trim().slice(0, 300));
        rec.out = { hooks: outs };
        return;
      }
      case 'skill': {
        const toolInput = { skill: `oh-my-claudecode:${step.skill}` };
        const base = {
          ...payloadOf('PreToolUse', step.s),
          tool_name: 'Skill',
          tool_input: toolInput,
          tool_use_id: `toolu_${step.t}`,
        };
        rec.input = { tool_input: toolInput };
        for (const script of hookScripts(version, 'PreToolUse', 'Skill'))
          await runner.hook(script, { cwd, env, stdin: JSON.stringify(base), now });
        const post = {
          ...payloadOf('PostToolUse', step.s),
          tool_name: 'Skill',
          tool_input: toolInput,
          tool_response: { success: true, commandName: step.skill },
          tool_use_id: `toolu_${step.t}`,
        };
        for (const script of hookScripts(version, 'PostToolUse', 'Skill').filter((x) =>
          x.endsWith('post-tool-verifier.mjs'),
        ))
          await runner.hook(script, { cwd, env, stdin: JSON.stringify(post), now });
        return;
      }
      case 'stop': {
        const readers: Record<string, string> = {};
        for (const a of aliases) readers[a] = (await tool('state_list_active', { session_id: sid(a) }, now)).text;
        const payload = { ...payloadOf('Stop', step.s), stop_hook_active: false, ...(step.payload ?? {}) };
        await opts.beforeStop?.({
          version,
          cwd,
          home,
          sessionId: sid(step.s),
          now,
          payload,
          transcriptPercent: pctOf(step.s),
          readers,
        });
        const script = path.join(path.dirname(hookScripts(version, 'Stop')[0] as string), STOP_SCRIPT[version]);
        const out = await runner.hook(script, { cwd, env, stdin: JSON.stringify(payload), now });
        rec.input = { payload: step.payload ?? {} };
        rec.out = { stdout: out.split('\n')[0] ?? '' };
        rec.stop = { ...stopDecision(out), readers };
        return;
      }
      case 'signal': {
        const rel = signalRel(step.s === null ? null : sid(step.s));
        const apRel =
          step.s === null ? 'state/autopilot-state.json' : `state/sessions/${sid(step.s)}/autopilot-state.json`;
        const sig =
          step.form === 'autopilot'
            ? autopilotSignal(fs.readFileSync(path.join(omc, apRel), 'utf8'), now)
            : genericSignal(step.mode, now);
        const abs = path.join(omc, rel);
        fs.mkdirSync(path.dirname(abs), { recursive: true });
        fs.writeFileSync(`${abs}.tmp`, serializeSignal(sig));
        fs.renameSync(`${abs}.tmp`, abs);
        rec.input = { rel, form: step.form ?? 'generic', mode: step.mode };
        return;
      }
      case 'omctop-cancel': {
        const argv = [step.s === null ? 'legacy' : sid(step.s), '--json', '--omc-version', version];
        if (step.mode) argv.push('--mode', step.mode);
        if (step.signalOnly) argv.push('--signal-only');
        rec.input = { argv };
        const res = await runner.cancel(argv, {
          cwd,
          env: { PATH: env.PATH as string, HOME: home, CLAUDE_CONFIG_DIR: path.join(home, '.claude') },
          now,
        });
        let json: Record<string, unknown> | null = null;
        try {
          json = JSON.parse(res.out) as Record<string, unknown>;
        } catch {
          /* not JSON: kept as text */
        }
        rec.out = json
          ? {
              code: res.code,
              ok: json.ok,
              summary: json.summary ?? json.message,
              modes: json.modes,
              linked: json.linked,
            }
          : { code: res.code, text: res.out.slice(0, 500) };
        return;
      }
      case 'state': {
        const args = resolveIds(step.args);
        rec.input = { tool: step.tool, args: step.args };
        const r = await tool(step.tool, args, now);
        rec.out = { text: r.text.slice(0, 1500), ...(r.isError ? { isError: true } : {}) };
        return;
      }
      case 'skill-cancel': {
        const s = sid(step.s);
        rec.input = { session_id: s };
        const list = (await tool('state_list_active', { session_id: s }, now)).text;
        const modes = SKILL_CANCEL_ORDER.filter((m) => new RegExp(`\\*\\*${m}\\*\\*`).test(list));
        for (const m of [...modes, 'skill-active']) await tool('state_clear', { mode: m, session_id: s }, now);
        rec.out = { list: list.slice(0, 1500), cleared: modes };
        return;
      }
      case 'patch': {
        const abs = path.join(omc, step.rel.replace('{A}', SESSIONS.A as string).replace('{B}', SESSIONS.B as string));
        rec.input = { rel: step.rel, set: step.set };
        // Only an existing state is patched (the version's keyword hook may not have written one).
        if (!fs.existsSync(abs)) {
          rec.out = { skipped: 'no such file' };
          return;
        }
        const cur = JSON.parse(fs.readFileSync(abs, 'utf8')) as Record<string, unknown>;
        fs.writeFileSync(abs, JSON.stringify({ ...cur, ...step.set }, null, 2));
        return;
      }
      case 'transcript': {
        const p = transcript(step.s);
        fs.mkdirSync(path.dirname(p), { recursive: true });
        const input = Math.round((200_000 * step.pct) / 100);
        fs.appendFileSync(
          p,
          JSON.stringify({ type: 'assistant', message: { usage: { input_tokens: input } }, context_window: 200_000 }) +
            '\n',
        );
        rec.input = { pct: step.pct };
        return;
      }
      case 'turn': {
        const p = transcript(step.s);
        fs.mkdirSync(path.dirname(p), { recursive: true });
        const at = new Date(now).toISOString();
        const lines = [promptLine(sid(step.s), at, 'keep going')];
        if (step.blocked) lines.push(stopBlock(sid(step.s), at, '[RALPH LOOP - ITERATION 2/100] Work is NOT done.'));
        fs.appendFileSync(p, lines.join('\n') + '\n');
        rec.input = { blocked: step.blocked };
        return;
      }
    }
  }

  function resolveIds(a: Record<string, unknown>): Record<string, unknown> {
    const fix = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(fix);
      if (v && typeof v === 'object')
        return Object.fromEntries(
          Object.entries(v).map(([k, x]) => [k, k === 'session_id' && typeof x === 'string' ? sid(x) : fix(x)]),
        );
      return v;
    };
    return fix(a) as Record<string, unknown>;
  }
}
