/** A Claude process's status in a sentence: "is busy", "is gone", but "has exited" (not "is exited"). */
export const processStateWords = (status: string): string => (status === 'exited' ? 'has exited' : `is ${status}`);
