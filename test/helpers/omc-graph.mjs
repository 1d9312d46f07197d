// An OMC 5.5.0 graph run with two human gates, driven by OMC's own compiled code (nothing re-implemented):
// sealGraphDescriptor, runGraph, createRemoteApprovalGate (the file protocol `--approval-mode remote` uses),
// CommandNodeExecutor, and OMC's readers (listPendingApprovals, parseDecisionArtifact). After the research
// script /work/notes/omc-5.5-surfaces/graph-two-gates.mjs (ours). The notifier is not wired: nothing leaves
// the machine. Linux only (OMC's contained-fs refuses other platforms without its native addon).
import fs from 'node:fs';
import path from 'node:path';
import { OMC55, importOmc } from './omc-packages.mjs';

const { sealGraphDescriptor } = await importOmc(OMC55, 'dist/graph/descriptor.js');
const { runGraph } = await importOmc(OMC55, 'dist/graph/runtime/runner.js');
const remote = await importOmc(OMC55, 'dist/graph/runtime/remote-approval.js');
const { CommandNodeExecutor } = await importOmc(OMC55, 'dist/graph/runtime/executors/command.js');

/** build -> gate-deploy -> stage -> gate-release -> verify (unsealed). */
export function twoGateDescriptor(runId) {
  const cmd = (id, title, command) => ({
    id,
    kind: 'command',
    title,
    timeout_ms: 10_000,
    max_attempts: 1,
    effect_policy: { policy: 'side_effect_free' },
    command,
  });
  return {
    descriptor_version: 1,
    run_id: runId,
    revision_id: 'rev-1',
    goal: 'two human gates',
    nodes: [
      cmd('build', 'Build', 'echo built'),
      { id: 'gate-deploy', kind: 'human-approval', title: 'Deploy gate', prompt: 'Deploy the build to staging?' },
      cmd('stage', 'Stage', 'echo staged'),
      { id: 'gate-release', kind: 'human-approval', title: 'Release gate', prompt: 'Release to production?' },
      cmd('verify', 'Verify', 'echo verified'),
    ],
    edges: [
      { id: 'e1', kind: 'fixed', from: 'build', to: 'gate-deploy' },
      { id: 'e2', kind: 'fixed', from: 'gate-deploy', to: 'stage' },
      { id: 'e3', kind: 'fixed', from: 'stage', to: 'gate-release' },
      { id: 'e4', kind: 'fixed', from: 'gate-release', to: 'verify' },
    ],
    entry_node_ids: ['build'],
    concurrency_limit: 1,
    terminal_verification_node_id: 'verify',
  };
}

/** Starts the run in this process; `done` settles with OMC's RunResult. */
export function startTwoGateRun({ runsRoot, runId, pollIntervalMs = 50, timeoutMs, timeoutPolicy }) {
  fs.mkdirSync(runsRoot, { recursive: true });
  const sealed = sealGraphDescriptor(twoGateDescriptor(runId));
  const prompter = remote.createRemoteApprovalGate({
    runsRoot,
    runId: sealed.run_id,
    pollIntervalMs,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(timeoutPolicy !== undefined ? { timeoutPolicy } : {}),
  });
  const done = runGraph(sealed, { runsRoot, executors: [new CommandNodeExecutor()], prompter });
  const runDir = path.join(runsRoot, sealed.run_id);
  return { runDir, done, pendingPath: (act) => path.join(runDir, 'approvals', 'pending', `${act}.json`) };
}

/** OMC's own readers. */
export const listPending = (runsRoot) => remote.listPendingApprovals(runsRoot);
export const parseDecision = (raw) => remote.parseDecisionArtifact(raw);
export const writeDecision = (runsRoot, runId, act, decision, by) =>
  remote.writeApprovalDecision(runsRoot, runId, act, decision, by);
export const OMC_CLI = path.join(OMC55, 'bin', 'oh-my-claudecode.js');
