import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TranscriptReader } from '../../../src/store/claude/transcript-reader.js';
import { FactsBuilder } from '../../../src/store/claude/transcript-facts.js';
import { assistant, bigShape, prompt, stopBlock, toolResult, turnDuration } from './lines.js';

const SID = '123513ef-7c26-4836-9c7c-1a231f989fe3';
let dir: string;
const rel = `projects/-p/${SID}.jsonl`;
const file = () => path.join(dir, rel);
const append = (lines: string[]) => fs.appendFileSync(file(), lines.map((l) => l + '\n').join(''));

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-claude-'));
  fs.mkdirSync(path.join(dir, 'projects', '-p'), { recursive: true });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('transcript reader', () => {
  it('sums usage once per message.id although every content block repeats it', () => {
    append([
      prompt(SID, '2026-12-01T09:00:00Z', 'hello'),
      ...assistant(SID, '2026-12-01T09:00:01Z', 'msg_1', 1, [
        { type: 'text', text: 'Running it.' },
        { type: 'tool_use', name: 'Bash', input: { command: 'touch a' } },
      ]),
      toolResult(SID, '2026-12-01T09:00:02Z', 'ok'),
      ...assistant(SID, '2026-12-01T09:00:03Z', 'msg_2', 2, [{ type: 'text', text: 'Done.' }]),
    ]);
    const r = new TranscriptReader(dir, rel);
    r.refresh();
    const f = r.state().facts;
    expect(f.tokens).toEqual({ input: 101 + 102, output: 11 + 12, cacheRead: 3000, cacheWrite: 10 });
    expect(f.messages).toBe(2);
    expect(f.lastAssistantText).toBe('Done.');
    expect(f.lastToolCalls).toEqual([{ name: 'Bash', arg: 'touch a', atMs: Date.parse('2026-12-01T09:00:01Z') }]);
  });

  it('reads only appended bytes, and waits for a line to be complete', () => {
    append([prompt(SID, '2026-12-01T09:00:00Z', 'hi')]);
    const r = new TranscriptReader(dir, rel);
    r.refresh();
    const half = assistant(SID, '2026-12-01T09:00:01Z', 'msg_1', 1, [{ type: 'text', text: 'part' }])[0] as string;
    fs.appendFileSync(file(), half.slice(0, 40));
    expect(r.refresh()).toBe(false);
    expect(r.state().facts.messages).toBe(0);
    fs.appendFileSync(file(), half.slice(40) + '\n');
    expect(r.refresh()).toBe(true);
    expect(r.state().facts.lastAssistantText).toBe('part');
    expect(r.state().offset).toBe(fs.statSync(file()).size);
  });

  it('never parses the big request-shape lines and skips runaway lines without buffering them', () => {
    append([bigShape(60), prompt(SID, '2026-12-01T09:00:00Z', 'hi')]);
    fs.appendFileSync(file(), 'y'.repeat(5 * 1024 * 1024) + '\n');
    append(assistant(SID, '2026-12-01T09:00:01Z', 'msg_1', 1, [{ type: 'text', text: 'after' }]));
    const r = new TranscriptReader(dir, rel);
    r.refresh();
    const s = r.state();
    // The shape line carries a usage too: counting it would add 199 input tokens.
    expect(s.facts.tokens.input).toBe(101);
    expect(s.facts.lastAssistantText).toBe('after');
    // The runaway line could have held a response: not read, and said (the figures may be low).
    expect(s.longLines).toBe(1);
    expect(s.problem).toBe('1 transcript line over 4.0 MB not read: the figure may be low');
  });

  it('counts the same whatever the reads stop inside: a request-shape line cut by a read is skipped whole', () => {
    const lines: string[] = [];
    for (let k = 0; k < 6; k++)
      lines.push(
        bigShape(20 + k),
        ...assistant(SID, `2026-12-01T09:00:0${k}Z`, `msg_${k}`, k, [{ type: 'text', text: `step ${k}` }]),
      );
    append(lines);
    const whole = new TranscriptReader(dir, rel);
    whole.refresh();
    // Reads of 7 KB end inside nearly every shape line, and some inside the head that names its type.
    const cut = new TranscriptReader(dir, rel);
    let reads = 0;
    do cut.refresh(7 * 1024 + (reads % 3) * 50);
    while (++reads < 1000 && cut.behind);
    expect(reads).toBeGreaterThan(10);
    expect(cut.state().facts.tokens).toEqual(whole.state().facts.tokens);
    expect(cut.state().facts.messages).toBe(6);
    expect(cut.state().facts.lastAssistantText).toBe('step 5');
    expect(cut.state().offset).toBe(fs.statSync(file()).size);
    expect(cut.behind).toBe(false);
    // A shape line the CLI is still writing: nothing is counted from it, the line after it is.
    const shape = bigShape(30);
    fs.appendFileSync(file(), shape.slice(0, 9000));
    expect(cut.refresh()).toBe(false);
    fs.appendFileSync(file(), shape.slice(9000) + '\n');
    append(assistant(SID, '2026-12-01T09:00:09Z', 'msg_9', 9, [{ type: 'text', text: 'after the shape' }]));
    cut.refresh();
    expect(cut.state().facts.messages).toBe(7);
    expect(cut.state().facts.lastAssistantText).toBe('after the shape');
    expect(cut.state().problem).toBeNull();
  });

  it("reads the context use off the file's last 4 KiB however the reads were split", () => {
    const line = (input: number) =>
      JSON.stringify({ type: 'note', usage: { input_tokens: input }, context_window: 1000 });
    append([line(100), 'z'.repeat(3000), line(250), 'w'.repeat(500)]);
    const r = new TranscriptReader(dir, rel);
    expect(r.contextPercent()).toBeNull();
    do r.refresh(1500);
    while (r.behind);
    expect(r.contextPercent()).toBe(25);
    // The last 4 KiB no longer hold the line naming 250: the newer one wins, the old one is gone.
    append([line(700), 'q'.repeat(4200)]);
    r.refresh(100);
    r.refresh();
    expect(r.contextPercent()).toBe(0);
    append([line(900)]);
    r.refresh();
    expect(r.contextPercent()).toBe(90);
  });

  it('holds no memory outside the heap for a transcript that is not there (a reader per OMC session at start)', () => {
    const before = process.memoryUsage().arrayBuffers;
    const readers = Array.from({ length: 1000 }, (_, i) => new TranscriptReader(dir, `projects/-none/${i}.jsonl`));
    for (const r of readers) r.refresh();
    // 4 KiB each if every reader kept its tail buffer from the start: 4 MB.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1_000_000);
    expect(readers.every((r) => r.contextPercent() === null)).toBe(true);
  });

  it('makes its facts only when a line is read or they are asked for (none for a transcript not there)', () => {
    let made = 0;
    const counted = () => {
      made += 1;
      return new FactsBuilder();
    };
    const none = new TranscriptReader(dir, 'projects/-none/x.jsonl', counted);
    expect(none.refresh()).toBe('missing');
    expect(none.factsIfAny).toBeNull();
    expect(none.nextOffset).toBe(0);
    expect(made).toBe(0);
    // Asked for, they are there (empty), as before.
    expect(none.state().facts.messages).toBe(0);
    expect(made).toBe(1);

    made = 0;
    append(assistant(SID, '2026-12-01T09:00:01Z', 'msg_1', 1, [{ type: 'text', text: 'one' }]));
    const r = new TranscriptReader(dir, rel, counted);
    r.refresh();
    // One folder for the first read, not one made up front and another when the read starts.
    expect(made).toBe(1);
    expect(r.factsIfAny?.messages).toBe(1);
    expect(r.nextOffset).toBe(fs.statSync(file()).size);
  });

  it('starts over when the file is replaced or truncated', () => {
    append(assistant(SID, '2026-12-01T09:00:01Z', 'msg_1', 1, [{ type: 'text', text: 'one' }]));
    const r = new TranscriptReader(dir, rel);
    r.refresh();
    fs.writeFileSync(
      file(),
      assistant(SID, '2026-12-01T09:00:01Z', 'msg_9', 9, [{ type: 'text', text: 'z' }])[0] + '\n',
    );
    r.refresh();
    expect(r.state().facts.tokens.input).toBe(109);
  });

  it('turns a bad line into a problem and keeps going; control bytes never survive', () => {
    append(['{"type":"assistant", oops', prompt(SID, '2026-12-01T09:00:00Z', 'x')]);
    append(
      assistant(SID, '2026-12-01T09:00:01Z', 'm', 1, [
        { type: 'text', text: 'red \u001b[31mtext\u001b]0;title\u0007' },
      ]),
    );
    const r = new TranscriptReader(dir, rel);
    r.refresh();
    expect(r.state().problem).toBe('a line is not valid JSON');
    expect(r.state().facts.lastAssistantText).toBe('red text');
  });

  it('refuses a transcript that is a symlink, a FIFO never blocks', () => {
    fs.writeFileSync(path.join(dir, 'elsewhere.jsonl'), prompt(SID, '2026-12-01T09:00:00Z', 'x') + '\n');
    fs.symlinkSync(path.join(dir, 'elsewhere.jsonl'), file());
    const r = new TranscriptReader(dir, rel);
    r.refresh();
    expect(r.state().problem).toMatch(/symlink/);
    fs.unlinkSync(file());
    execFileSync('mkfifo', [file()]);
    const f = new TranscriptReader(dir, rel);
    f.refresh();
    expect(f.state().problem).toBe('is not a regular file');
  });

  it('builds the Stop-hook timeline, files per turn, errors and iterations', () => {
    append([
      prompt(SID, '2026-12-01T09:00:00Z', 'ralph: do X'),
      ...assistant(SID, '2026-12-01T09:00:01Z', 'm1', 1, [
        { type: 'tool_use', name: 'Write', input: { file_path: '/p/a.ts', content: 'x' } },
      ]),
      toolResult(SID, '2026-12-01T09:00:02Z', 'ok'),
      stopBlock(SID, '2026-12-01T09:00:10Z', '[RALPH LOOP - ITERATION 2/100] Work is NOT done.'),
      ...assistant(SID, '2026-12-01T09:00:11Z', 'm2', 2, [
        { type: 'tool_use', name: 'Bash', input: { command: 'npm test' } },
      ]),
      toolResult(SID, '2026-12-01T09:00:12Z', 'Exit code 1', true),
      turnDuration(SID, '2026-12-01T09:00:13Z', 13000),
      prompt(SID, '2026-12-01T09:01:00Z', 'keep going'),
      stopBlock(SID, '2026-12-01T09:01:30Z', '[RALPH LOOP - ITERATION 3/100] Work is NOT done.'),
    ]);
    const r = new TranscriptReader(dir, rel);
    r.refresh();
    const f = r.state().facts;
    expect(f.stopHooks.map((h) => [h.iteration, h.max])).toEqual([
      [2, 100],
      [3, 100],
    ]);
    // The work before OMC's first block ("ITERATION 2") is iteration 1, as OMC counts.
    expect(f.iterations.map((i) => [i.iteration, i.filesWritten, i.errors, i.tokens.input])).toEqual([
      [1, 1, 0, 101],
      [2, 0, 1, 102],
      [3, 0, 0, 0],
    ]);
    expect(f.turnFiles).toEqual([]); // a new prompt began a new turn
    expect(f.turnDurationsMs).toEqual([13000]);
    expect(f.lastError?.text).toBe('Exit code 1');
    expect(f.turnBlocks).toBe(1);
  });
});

describe("where Claude Code loaded OMC's skills from", () => {
  /** The Skill tool's meta line as Claude Code 2.1.332 writes it after a Skill call (seen in its transcripts). */
  const baseLine = (callId: string, text: string, extra: object = {}) =>
    JSON.stringify({
      type: 'user',
      isSidechain: false,
      isMeta: true,
      sourceToolUseID: callId,
      timestamp: '2026-12-01T09:00:02Z',
      sessionId: SID,
      message: { role: 'user', content: [{ type: 'text', text }] },
      ...extra,
    });
  const skillCall = (msg: string, callId: string, skill: string) =>
    assistant(SID, '2026-12-01T09:00:01Z', msg, 1, [{ type: 'tool_use', id: callId, name: 'Skill', input: { skill } }]);
  const fold = (lines: string[]) => {
    const b = new FactsBuilder();
    for (const l of lines) b.add(JSON.parse(l) as Record<string, unknown>, l);
    return b.facts.omcSkillDir?.dir ?? null;
  };

  it("names the directory of an OMC skill's base-directory line, and nothing else", () => {
    const omc = '/opt/omc/oh-my-claude-sisyphus/skills/ralph';
    expect(
      fold([
        ...skillCall('m1', 'toolu_1', 'oh-my-claudecode:ralph'),
        baseLine('toolu_1', `Base directory for this skill: ${omc}\n\n# Ralph`),
      ]),
    ).toBe(omc);
    // Another plugin's skill, a line tied to no OMC skill call, a typed prompt, a control byte: none counts.
    expect(
      fold([
        ...skillCall('m1', 'toolu_1', 'other:thing'),
        baseLine('toolu_1', `Base directory for this skill: ${omc}`),
      ]),
    ).toBeNull();
    expect(fold([baseLine('toolu_9', `Base directory for this skill: ${omc}`)])).toBeNull();
    expect(
      fold([
        ...skillCall('m1', 'toolu_1', 'oh-my-claudecode:ralph'),
        baseLine('toolu_1', `Base directory for this skill: ${omc}`, { isMeta: false }),
      ]),
    ).toBeNull();
    expect(
      fold([
        ...skillCall('m1', 'toolu_1', 'oh-my-claudecode:ralph'),
        baseLine('toolu_1', 'Base directory for this skill: /x\u001b]0;t\u0007/skills/a'),
      ]),
    ).toBeNull();
  });
});
