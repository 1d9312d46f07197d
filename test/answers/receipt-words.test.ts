import { describe, expect, it } from 'vitest';
import { receiptWords } from '../../src/feeds/answers/answer.js';

// What the monitor says of an answer the hook handed to a Claude that is gone by the time the receipt is read:
// "right after" only for a receipt read soon after it was written; one read late (a suspended or busy monitor)
// says only that Claude has exited since.
describe('receipt words for a Claude gone after the reply', () => {
  const at = 1_800_000_000_000;
  const rec = { id: 'r1', outcome: 'allow' as const, detail: '', atMs: at };

  it('read at once: exited right after', () => {
    expect(receiptWords('allow', rec, 'pid 4242 is not running', at + 1_200)).toEqual({
      text: 'handed to Claude: allow; Claude exited right after (pid 4242 is not running), so whether it acted on it is unknown',
      kind: 'info',
    });
  });

  it('read two minutes late: exited since, with the receipt’s age, never "right after"', () => {
    const w = receiptWords('allow', rec, 'pid 4242 is not running', at + 120_000);
    expect(w.text).toBe(
      'handed to Claude: allow; Claude has exited since (pid 4242 is not running; the receipt is 120s old), so whether it acted on it is unknown',
    );
    expect(w.kind).toBe('info');
  });

  it('Claude still there: told, whatever the age', () => {
    expect(receiptWords('allow', rec, null, at + 120_000).kind).toBe('success');
  });
});
