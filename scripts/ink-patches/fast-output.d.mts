export function createFastGet(deps: {
  styledCharsToString: (chars: any[]) => string;
}): (output: any) => { output: string; height: number } | undefined;
export function rowByRuns(x: number, width: number, line: string): string | undefined;
