/** Scrolling a list: which row is first on screen. Shared by every pane with a list. */

/** Keeps `top` so that row `index` is inside a window of `height` rows (and the window is not past the end). */
export function clampTop(top: number, index: number, height: number, total: number): number {
  if (height <= 0) return 0;
  let t = Math.min(top, Math.max(0, total - height));
  if (index < t) t = index;
  if (index >= t + height) t = index - height + 1;
  return Math.max(0, t);
}
