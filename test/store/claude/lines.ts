/** Transcript lines in the shapes Claude Code 2.1.332 writes (seen in transcripts the real CLI wrote). */
let n = 0;
const env = (sid: string, at: string) => ({
  parentUuid: null,
  isSidechain: false,
  uuid: `u-${++n}`,
  timestamp: at,
  userType: 'external',
  entrypoint: 'cli',
  cwd: '/p',
  sessionId: sid,
  version: '2.1.332',
});

export const prompt = (sid: string, at: string, text: string) =>
  JSON.stringify({ ...env(sid, at), type: 'user', promptSource: 'typed', message: { role: 'user', content: text } });

export const usage = (i: number) => ({
  input_tokens: 100 + i,
  output_tokens: 10 + i,
  cache_creation_input_tokens: 5,
  cache_read_input_tokens: 1000 * i,
});

/** One line per content block, each repeating the message's id and usage, as the CLI does. */
export const assistant = (sid: string, at: string, id: string, i: number, blocks: unknown[]) =>
  blocks.map((b) =>
    JSON.stringify({
      ...env(sid, at),
      type: 'assistant',
      requestId: `req_${id}`,
      message: { id, type: 'message', role: 'assistant', model: 'claude-opus-5-5', content: [b], usage: usage(i) },
    }),
  );

export const toolResult = (sid: string, at: string, content: string, isError = false, extra: object = {}) =>
  JSON.stringify({
    ...env(sid, at),
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content, is_error: isError }] },
    ...extra,
  });

export const stopBlock = (sid: string, at: string, reason: string) =>
  JSON.stringify({
    ...env(sid, at),
    type: 'attachment',
    attachment: {
      type: 'hook_blocking_error',
      hookName: 'Stop',
      blockingError: { blockingError: reason, command: 'x' },
    },
  });

export const turnDuration = (sid: string, at: string, ms: number) =>
  JSON.stringify({ ...env(sid, at), type: 'system', subtype: 'turn_duration', durationMs: ms });

export const bigShape = (kb: number) =>
  JSON.stringify({ type: 'api-request-shape', blob: 'x'.repeat(kb * 1024), usage: usage(99) });
