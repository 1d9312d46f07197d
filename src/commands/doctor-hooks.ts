/** doctor: the opt-in permission hook (`omc-top hooks install`), installed or not, and whether it can work. */
import { alsoInWords, hookStatus, hooksOffWords } from '../store/permissions/settings-hook.js';
import type { DoctorCheck } from './doctor-types.js';
import { docPath } from '../io/doc-path.js';

/** `cwd`: where doctor runs, as `hooks status` takes it: the settings file is the one Claude Code reads there. */
export function hooksCheck(cwd: string, env: NodeJS.ProcessEnv): DoctorCheck {
  const st = hookStatus({ cwd }, env);
  const base = { id: 'hooks' as const, title: 'Permission hook', data: { ...st } };
  // An older omc-top's entry elsewhere (a submodule's superproject): a warning on every branch, said last.
  const older = st.alsoIn.length > 0 ? [alsoInWords(st.alsoIn)] : [];
  // Hooks turned off in a settings file Claude Code reads: the entry, there or not, does nothing; said first.
  if (st.hooksDisabledIn !== null)
    return {
      ...base,
      status: 'warn',
      summary: `${st.installed ? 'installed' : 'not installed'} in ${st.settingsPath}, but ${hooksOffWords(st.hooksDisabledIn)}`,
      details: [
        "permission prompts are answered in Claude's terminal until hooks are on again",
        ...(st.installed ? [`runs: ${st.command ?? ''}`] : []),
        ...older,
      ],
    };
  if (!st.installed)
    return {
      ...base,
      status: st.problem || older.length > 0 ? 'warn' : 'info',
      summary: `not installed in ${st.settingsPath}: permission prompts are answered in Claude's terminal`,
      details: [
        ...(st.problem ? [st.problem] : []),
        `\`omc-top hooks install\` lets omc-top answer them (${docPath('answering.md')}); nothing is changed until then`,
        ...older,
      ],
    };
  return {
    ...base,
    status: st.problem || older.length > 0 ? 'warn' : 'ok',
    summary: `installed in ${st.settingsPath}: waits ${st.waitSeconds} s for omc-top, Claude's timeout ${st.timeout ?? '?'} s`,
    details: [
      ...(st.problem ? [st.problem] : []),
      `runs: ${st.command ?? ''}`,
      '`omc-top hooks uninstall` removes it',
      ...older,
    ],
  };
}
