export interface InkPatch {
  name: string;
  file: RegExp;
  module: string;
  /** The name its module is imported under (default `__omcTop`); two patches of one file need two. */
  binding?: string;
  edits: ReadonlyArray<{ find: string; replace: string }>;
  wiring: string;
}
export const APPLIED_KEY: string;
export const INK_PATCHES: readonly InkPatch[];
export function inkPatchesFor(file: string): InkPatch[];
export function applyInkPatch(file: string, src: string): string;
export const esbuildInkPatches: { name: string; setup(build: unknown): void };
export const viteInkPatches: {
  name: string;
  enforce: 'pre';
  transform(code: string, id: string): { code: string; map: null } | null;
};
