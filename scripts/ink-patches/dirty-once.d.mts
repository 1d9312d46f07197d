export function markDirtyOnce(yogaNode: { markDirty(): void } | undefined): void;
export function layoutEpoch<T>(direction: T): T;
