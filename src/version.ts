declare const __OMC_TOP_VERSION__: string | undefined;

/** Injected by scripts/build.mjs; "dev" when running from source (tests, tsx). */
export const VERSION: string = typeof __OMC_TOP_VERSION__ === 'string' ? __OMC_TOP_VERSION__ : 'dev';
