#!/usr/bin/env node
// A mock of the Anthropic Messages API for Claude Code end-to-end tests. Written for omc-top;
// it listens on loopback only and is steered by directives in the latest user text:
//   [[bash:CMD]] [[write:PATH]] [[skill:NAME]] [[text:WORDS]] [[slow:MS]]
//   [[agent:TYPE]] or [[agent:TYPE/MODEL]] -> an Agent tool call (MODEL = sonnet|opus|haiku) whose prompt
//   carries the [[sub:...]] directives, written {bash:..} {write:..} {text:..} (default {bash:echo from-sub});
//   the subagent's requests are a conversation of their own (keyed by its first user text), with their own
//   call count, message ids and tool ids.
//   [[tool:NAME {json}]] -> any tool call with that input (e.g. CronCreate, ScheduleWakeup; the JSON has no ']').
// A request without tools (Claude Code's side requests: the /goal evaluator, the background-job classifier)
// is answered apart, with its own call count: {"ok":false,…} when the request holds [[goalno]], {"ok":true,…}
// with [[goalok]], else a fixed text.
// Directives run one tool call per response, in order; then a closing text. When the request
// carries OMC's "Skill routing detected: NAME" hint, the model obeys it once per session.
// Usage is deterministic per session call n: input 100+n, output 10+n, cache write 5, cache read 1000n.
// argv: port logFile readyFile
import http from 'node:http';
import fs from 'node:fs';
import crypto from 'node:crypto';

const [port, logFile, readyFile] = process.argv.slice(2);
const sessions = new Map();

function log(entry) {
  fs.appendFileSync(logFile, JSON.stringify({ at: Date.now(), ...entry }) + '\n');
}

function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b) => b && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text)
    .join('\n');
}

const DIRECTIVE = /\[\[(bash|write|skill|text|slow|agent|sub|tool):([^\]]*)\]\]/g;
const SUBDIRECTIVE = /\{(bash|write|text|slow):([^}]*)\}/g;
const SUBAGENT = 'SUBAGENT-TASK';

/** The newest user text that carries directives: the human prompt, wherever the CLI put it. */
function directivePrompt(messages, sub) {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role !== 'user') continue;
    const t = textOf(messages[i].content);
    // Hook feedback and skill bodies quote the task; they are not a new prompt.
    if (t.includes('Stop hook feedback') || t.startsWith('Base directory for this skill')) continue;
    if (sub ? /\{(bash|write|text|slow):/.test(t) : /\[\[(bash|write|skill|text|slow|agent|tool):/.test(t)) return t;
  }
  return null;
}

/** A subagent's conversation starts with the prompt the Agent call gave it. */
const isSubagent = (messages) => textOf(messages[0]?.content ?? '').includes(SUBAGENT);

function plan(session, body) {
  const messages = body.messages ?? [];
  if (isSubagent(messages)) return planSub(session, messages);
  const prompt = directivePrompt(messages, false);
  if (prompt !== null && prompt !== session.prompt) {
    const directives = [...prompt.matchAll(DIRECTIVE)].map((m) => ({ kind: m[1], arg: m[2] }));
    session.prompt = prompt;
    session.queue = directives.filter((d) => ['bash', 'write', 'skill', 'agent', 'tool'].includes(d.kind));
    session.subSpec = directives.find((d) => d.kind === 'sub')?.arg ?? '{bash:echo from-sub}';
    session.slow = Number(directives.find((d) => d.kind === 'slow')?.arg ?? 0);
    session.closing = directives.find((d) => d.kind === 'text')?.arg ?? null;
  }
  const hint = /Skill routing detected: ([a-z0-9-]+)/.exec(JSON.stringify(messages));
  if (hint && !session.skilled.has(hint[1])) {
    session.skilled.add(hint[1]);
    return { tool: { name: 'Skill', input: { skill: `oh-my-claudecode:${hint[1]}` } }, text: 'Using the skill.' };
  }
  const next = session.queue.shift();
  if (next?.kind === 'bash')
    return { tool: { name: 'Bash', input: { command: next.arg, description: 'mock command' } }, text: 'Running it.' };
  if (next?.kind === 'write')
    return { tool: { name: 'Write', input: { file_path: next.arg, content: 'written by the mock\n' } }, text: null };
  if (next?.kind === 'skill') return { tool: { name: 'Skill', input: { skill: next.arg } }, text: null };
  if (next?.kind === 'agent') {
    const [type, model] = (next.arg || 'general-purpose').split('/');
    const input = { description: 'mock subagent task', prompt: `${SUBAGENT} ${session.subSpec}`, subagent_type: type };
    return { tool: { name: 'Agent', input: model ? { ...input, model } : input }, text: 'Delegating.' };
  }
  if (next?.kind === 'tool') {
    const sp = next.arg.indexOf(' ');
    try {
      return { tool: { name: next.arg.slice(0, sp), input: JSON.parse(next.arg.slice(sp + 1)) }, text: null };
    } catch {
      return { tool: null, text: `mock: bad JSON in a tool directive (call ${session.calls}).` };
    }
  }
  return { tool: null, text: `${session.closing ?? 'Done'} (call ${session.calls}).` };
}

function planSub(conv, messages) {
  const prompt = directivePrompt(messages, true);
  if (prompt !== null && prompt !== conv.prompt) {
    const directives = [...prompt.matchAll(SUBDIRECTIVE)].map((m) => ({ kind: m[1], arg: m[2] }));
    conv.prompt = prompt;
    conv.queue = directives.filter((d) => d.kind === 'bash' || d.kind === 'write');
    conv.slow = Number(directives.find((d) => d.kind === 'slow')?.arg ?? 0);
    conv.closing = directives.find((d) => d.kind === 'text')?.arg ?? 'subagent done';
  }
  const next = conv.queue.shift();
  if (next?.kind === 'bash')
    return { tool: { name: 'Bash', input: { command: next.arg, description: 'mock command' } }, text: 'Running it.' };
  if (next?.kind === 'write')
    return { tool: { name: 'Write', input: { file_path: next.arg, content: 'written by the mock\n' } }, text: null };
  return { tool: null, text: `${conv.closing} (call ${conv.calls}).` };
}

/** A side request's answer: the /goal evaluator's verdict when the request carries one, else a fixed text. */
function sidePlan(body) {
  const all = JSON.stringify(body);
  if (all.includes('[[goalok]]')) return { tool: null, text: '{"ok": true, "reason": "mock says the goal is met"}' };
  if (all.includes('[[goalno]]'))
    return { tool: null, text: '{"ok": false, "reason": "mock says the goal is not met yet"}' };
  return { tool: null, text: 'side answer' };
}

/**
 * What OMC's UserPromptSubmit hooks told the model, for a test's failure message: the skill its keyword detector
 * routed to, and any of its own error lines (a state lock it could not take, …).
 */
function omcNotes(messages) {
  const all = JSON.stringify(messages);
  const routed = /Skill routing detected: ([a-z0-9-]+)/.exec(all)?.[1] ?? null;
  const errors = [...all.matchAll(/\[(?:OMC|AUTOPILOT)[A-Z ]*ERROR\][^"\\]{0,200}/g)].map((m) => m[0]);
  // The iteration OMC's Stop hook last blocked with ("[RALPH LOOP - ITERATION 2/100]"): the ralph state was on disk
  // with it then, whatever a test's watcher saw.
  const loopIteration = [...all.matchAll(/RALPH LOOP - ITERATION (\d+)/g)].at(-1)?.[1] ?? null;
  return {
    routed,
    ...(loopIteration !== null ? { loopIteration } : {}),
    ...(errors.length > 0 ? { omcErrors: errors } : {}),
  };
}

function sse(res, event, data) {
  res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
}

const wait = (ms) => new Promise((r) => setTimeout(r, ms));

async function respond(req, res, body) {
  const sid = String(req.headers['x-claude-code-session-id'] ?? 'none');
  const messages = body.messages ?? [];
  // A subagent shares its session's header: its conversation is keyed by its first user text too.
  const conv = isSubagent(messages)
    ? `s${crypto.createHash('sha1').update(textOf(messages[0].content)).digest('hex').slice(0, 6)}`
    : '';
  const side = !(Array.isArray(body.tools) && body.tools.length > 0);
  const key = side ? `${sid}:side` : conv ? `${sid}:${conv}` : sid;
  const session = sessions.get(key) ?? {
    calls: 0,
    skilled: new Set(),
    prompt: null,
    queue: [],
    slow: 0,
    closing: null,
  };
  sessions.set(key, session);
  session.calls += 1;
  const n = session.calls;
  const p = side ? sidePlan(body) : plan(session, body);
  const usage = {
    input_tokens: 100 + n,
    output_tokens: 10 + n,
    cache_creation_input_tokens: 5,
    cache_read_input_tokens: 1000 * n,
  };
  const tag = side ? `${sid.slice(0, 8)}_side` : conv ? `${sid.slice(0, 8)}_${conv}` : sid.slice(0, 8);
  const id = `msg_${tag}_${n}`;
  log({
    ...(side ? {} : omcNotes(messages)),
    session: sid,
    ...(conv ? { conv } : {}),
    ...(side ? { side: true } : {}),
    model: body.model ?? null,
    call: n,
    path: req.url,
    tool: p.tool?.name ?? null,
    input: p.tool?.input ?? null,
    text: p.text,
    usage,
  });
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'request-id': `req_${tag}_${n}`,
  });
  const pause = () => (session.slow > 0 ? wait(session.slow) : Promise.resolve());
  sse(res, 'message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: body.model ?? 'claude-mock',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  let index = 0;
  if (p.text) {
    sse(res, 'content_block_start', { index, content_block: { type: 'text', text: '' } });
    await pause();
    sse(res, 'content_block_delta', { index, delta: { type: 'text_delta', text: p.text } });
    sse(res, 'content_block_stop', { index });
    index += 1;
  }
  if (p.tool) {
    sse(res, 'content_block_start', {
      index,
      content_block: { type: 'tool_use', id: `toolu_${tag}_${n}`, name: p.tool.name, input: {} },
    });
    await pause();
    sse(res, 'content_block_delta', {
      index,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(p.tool.input) },
    });
    sse(res, 'content_block_stop', { index });
  }
  await pause();
  sse(res, 'message_delta', {
    delta: { stop_reason: p.tool ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  sse(res, 'message_stop', {});
  res.end();
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (req.method === 'POST' && req.url?.startsWith('/v1/messages') && !req.url.includes('count_tokens')) {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      respond(req, res, body).catch((e) => {
        log({ error: String(e) });
        res.end();
      });
      return;
    }
    log({ unexpected: `${req.method} ${req.url}` });
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end('{"type":"error","error":{"type":"not_found_error","message":"mock"}}');
  });
});
server.listen(Number(port), '127.0.0.1', () => fs.writeFileSync(readyFile, String(process.pid)));
