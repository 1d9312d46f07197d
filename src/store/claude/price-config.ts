/**
 * The user's price overrides, read once per config path from the config file
 * (src/notify/config.ts validates it: a bad `prices` entry makes the loader
 * report the file and the field and fall back to the defaults, so only the
 * built-in table applies). Read once: views ask on every frame; a process that follows the file sets the prices
 * of each valid change (setConfiguredPrices).
 */
import { configPath, loadConfig } from '../../config/config-file.js';
import type { ModelPrice } from './prices.js';

const cache = new Map<string, Readonly<Record<string, ModelPrice>>>();

export function configuredPrices(env: NodeJS.ProcessEnv = process.env): Readonly<Record<string, ModelPrice>> {
  const file = configPath(env);
  let hit = cache.get(file);
  if (!hit) {
    hit = loadConfig(file).config.prices ?? {};
    cache.set(file, hit);
  }
  return hit;
}

/**
 * The prices of the settings in force when a process follows the file (the fleet: fleet/live-config.ts applies a
 * valid change): the cost shown from now on is at these prices.
 */
export function setConfiguredPrices(
  prices: Readonly<Record<string, ModelPrice>>,
  env: NodeJS.ProcessEnv = process.env,
): void {
  cache.set(configPath(env), prices);
}

/** Tests that rewrite a config file between cases. */
export function forgetConfiguredPrices(): void {
  cache.clear();
}
