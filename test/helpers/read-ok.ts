/** A successful safe-fs text read of `text`, as a domain receives it from `readTextSync` (an ordinary file). */
export function readOk(text: string, over: { mtimeMs?: number; ino?: number; mode?: number } = {}) {
  return {
    ok: true as const,
    text,
    bytes: Buffer.byteLength(text),
    mtimeMs: over.mtimeMs ?? 1,
    ino: over.ino ?? 1,
    invalidUtf8: false,
    bom: false,
    uid: 0,
    mode: over.mode ?? 0o644,
    nlink: 1,
  };
}
