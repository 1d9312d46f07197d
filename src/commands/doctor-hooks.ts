/** doctor: the opt-in permission hook (`omc-top hooks install`), installed or not, and whether it can work. */
import { hookStatus } from '../store/permissions/settings-hook.js';
import type { DoctorCheck } from './doctor-types.js';

export function hooksCheck(projectDir: string, env: NodeJS.ProcessEnv): DoctorCheck {
  const st = hookStatus(projectDir, env);
  const base = { id: 'hooks' as const, title: 'Permission hook', data: { ...st } };
  if (!st.installed)
    return {
      ...base,
      status: st.problem ? 'warn' : 'info',
      summary: `not installed in ${st.settingsPath}: permission prompts are answered in Claude's terminal`,
      details: [
        ...(st.problem ? [st.problem] : []),
        '`omc-top hooks install` lets omc-top answer them (docs/answering.md); nothing is changed until then',
      ],
    };
  return {
    ...base,
    status: st.problem ? 'warn' : 'ok',
    summary: `installed in ${st.settingsPath}: waits ${st.waitSeconds} s for omc-top, Claude's timeout ${st.timeout ?? '?'} s`,
    details: [...(st.problem ? [st.problem] : []), `runs: ${st.command ?? ''}`, '`omc-top hooks uninstall` removes it'],
  };
}
