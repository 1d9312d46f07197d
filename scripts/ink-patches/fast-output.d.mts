export function createFastGet(deps: {
  styledCharsToString: (chars: any[]) => string;
}): (output: any) => { output: string; height: number } | undefined;
