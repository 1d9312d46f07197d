// Writes Claude Code-shaped transcripts for the benchmark: mostly 40–60 KB request-shape lines
// (what makes real transcripts big) between assistant lines that carry usage (one per content
// block, repeating the message id), tool results and Stop-hook blocks.
import fs from 'node:fs';

function chunk(sid, k) {
  const lines = [];
  const at = new Date(Date.now() - 3600_000 + k * 1000).toISOString();
  lines.push(
    JSON.stringify({ type: 'user', sessionId: sid, timestamp: at, message: { role: 'user', content: `prompt ${k}` } }),
  );
  for (let i = 0; i < 16; i++) {
    lines.push(
      JSON.stringify({ type: 'api-request-shape', sessionId: sid, shape: 'x'.repeat(48_000 + ((i * 997) % 9000)) }),
    );
    const id = `msg_${k}_${i}`;
    const usage = {
      input_tokens: 100 + i,
      output_tokens: 10 + i,
      cache_read_input_tokens: 1000 * i,
      cache_creation_input_tokens: 5,
    };
    const msg = (content) => ({ id, role: 'assistant', model: 'claude-opus-5-5', content, usage });
    lines.push(
      JSON.stringify({
        type: 'assistant',
        sessionId: sid,
        timestamp: at,
        message: msg([{ type: 'text', text: `step ${i} of chunk ${k}` }]),
      }),
    );
    lines.push(
      JSON.stringify({
        type: 'assistant',
        sessionId: sid,
        timestamp: at,
        message: msg([{ type: 'tool_use', name: 'Edit', input: { file_path: `/p/src/f${i}.ts` } }]),
      }),
    );
    lines.push(
      JSON.stringify({
        type: 'user',
        sessionId: sid,
        timestamp: at,
        message: { role: 'user', content: [{ type: 'tool_result', content: 'ok', is_error: false }] },
      }),
    );
  }
  lines.push(
    JSON.stringify({
      type: 'attachment',
      sessionId: sid,
      timestamp: at,
      attachment: {
        type: 'hook_blocking_error',
        blockingError: { blockingError: `[RALPH LOOP - ITERATION ${k + 2}/100] Work is NOT done.` },
      },
    }),
  );
  return lines.join('\n') + '\n';
}

/** Writes a transcript of about `mb` MB; returns its exact token totals. */
export function writeTranscript(file, sid, mb) {
  const fd = fs.openSync(file, 'w');
  let size = 0;
  let k = 0;
  try {
    while (size < mb * 1024 * 1024) {
      const c = chunk(sid, k++);
      fs.writeSync(fd, c);
      size += Buffer.byteLength(c);
    }
  } finally {
    fs.closeSync(fd);
  }
  const per = { input: 0, output: 0, cache_read: 0, cache_write: 0 };
  for (let i = 0; i < 16; i++) {
    per.input += 100 + i;
    per.output += 10 + i;
    per.cache_read += 1000 * i;
    per.cache_write += 5;
  }
  return { bytes: size, tokens: Object.fromEntries(Object.entries(per).map(([key, v]) => [key, v * k])) };
}

/** One more API response appended (what a live CLI does several times a turn). */
export function appendResponse(file, sid, n) {
  const at = new Date().toISOString();
  const usage = { input_tokens: 7, output_tokens: 3, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  fs.appendFileSync(
    file,
    JSON.stringify({
      type: 'assistant',
      sessionId: sid,
      timestamp: at,
      message: { id: `msg_live_${n}`, role: 'assistant', content: [{ type: 'text', text: `live ${n}` }], usage },
    }) + '\n',
  );
}
