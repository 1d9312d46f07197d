// Claude Code's side of a bench tree, in a config dir of its own (pass it as CLAUDE_CONFIG_DIR):
//   none        an empty config dir (Claude Code never ran here);
//   registry    a live registry entry per OMC session: a real sleeping process each, so pid + procStart hold;
//   transcripts the same, and a `mb` MB transcript per session in the project's transcript directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { writeTranscript } from './transcripts.mjs';

const startTicks = (pid) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
};

export function claudeData(tree, kind, mb = 10) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `omc-top-bench-claude-${kind}-`));
  const children = [];
  const cleanup = () => {
    for (const c of children) c.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  };
  if (kind === 'none') return { dir, cleanup, sessions: 0 };
  const projectDir = path.dirname(tree.root);
  const enc = projectDir.replace(/[^a-zA-Z0-9]/g, '-');
  fs.mkdirSync(path.join(dir, 'sessions'));
  fs.mkdirSync(path.join(dir, 'projects', enc), { recursive: true });
  const sids = fs.readdirSync(path.join(tree.root, 'state', 'sessions'));
  for (const sid of sids) {
    const child = spawn('sleep', ['86400'], { stdio: 'ignore' });
    children.push(child);
    if (kind === 'transcripts') writeTranscript(path.join(dir, 'projects', enc, `${sid}.jsonl`), sid, mb);
    fs.writeFileSync(
      path.join(dir, 'sessions', `${child.pid}.json`),
      JSON.stringify({
        pid: child.pid,
        sessionId: sid,
        cwd: projectDir,
        procStart: startTicks(child.pid),
        version: '2.1.332',
        kind: 'interactive',
        entrypoint: 'cli',
        status: 'idle',
        statusUpdatedAt: Date.now(),
      }),
    );
  }
  return { dir, cleanup, sessions: sids.length };
}
