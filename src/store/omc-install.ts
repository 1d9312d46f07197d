/**
 * Which OMC release runs this project's hooks. Stub with the agreed shape: the
 * store engineer's version (which reads the installs) replaces it at merge.
 */
export interface OmcInstall {
  version: string | null;
  source: string;
  assumed: boolean;
  rules: string;
  candidates: ReadonlyArray<{ version: string | null; source: string; path: string }>;
}

export function detectOmcInstall(_opts: {
  env: NodeJS.ProcessEnv;
  projectDir: string | null;
  override?: string;
}): OmcInstall {
  return { version: null, source: 'not detected', assumed: true, rules: '5.5.0', candidates: [] };
}
