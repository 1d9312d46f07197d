/**
 * Yoga's wasm compiled by the bin from the app bundle's bytes (terminal/yoga-early.ts): the bytes it takes are
 * exactly yoga-layout's module, Yoga's own loader accepts the compiled module and lays out as it does alone, and
 * without one (or after it was taken) the loader is given nothing and does its own work.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from '../helpers/it.js';
import { REPO } from '../helpers/fixtures.js';
import { precompileYoga, wasmInBundle, yogaLoadOptions } from '../../src/terminal/yoga-early.js';

const YOGA = path.join(REPO, 'node_modules', 'yoga-layout', 'dist');
/** The built app bundle (test/global-setup.ts builds it), as the bin reads it. */
const bundle = () => fs.readFileSync(path.join(REPO, 'dist', 'omc-top-app.mjs'));

/** yoga-layout's module, decoded here from its package file without the code under test. */
function packagedWasm(): Buffer {
  const text = fs.readFileSync(path.join(YOGA, 'binaries', 'yoga-wasm-base64-esm.js'), 'latin1');
  const m = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/.exec(text);
  if (!m) throw new Error('no wasm in yoga-layout');
  return Buffer.from(m[1]!, 'base64');
}

interface LaidOut {
  left: number;
  top: number;
  width: number;
  height: number;
}
/** A row of two children, one fixed and one growing, in a 40 × 10 box: the layouts of all three. */
async function layoutWith(options: object | undefined): Promise<LaidOut[]> {
  const load = (await import(pathToFileURL(path.join(YOGA, 'binaries', 'yoga-wasm-base64-esm.js')).href)) as {
    default: (o?: object) => Promise<unknown>;
  };
  const wrap = (await import(pathToFileURL(path.join(YOGA, 'src', 'wrapAssembly.js')).href)) as {
    default: (lib: unknown) => {
      Node: { create(): YogaNode };
      FLEX_DIRECTION_ROW: number;
      DIRECTION_LTR: number;
    };
  };
  const Yoga = wrap.default(await load.default(options));
  const root = Yoga.Node.create();
  root.setWidth(40);
  root.setHeight(10);
  root.setFlexDirection(Yoga.FLEX_DIRECTION_ROW);
  const fixed = Yoga.Node.create();
  fixed.setWidth(12);
  const grow = Yoga.Node.create();
  grow.setFlexGrow(1);
  root.insertChild(fixed, 0);
  root.insertChild(grow, 1);
  root.calculateLayout(undefined, undefined, Yoga.DIRECTION_LTR);
  const out = [root, fixed, grow].map((n) => n.getComputedLayout());
  root.freeRecursive();
  return out;
}
interface YogaNode {
  setWidth(w: number): void;
  setHeight(h: number): void;
  setFlexDirection(d: number): void;
  setFlexGrow(g: number): void;
  insertChild(c: YogaNode, i: number): void;
  calculateLayout(w: undefined, h: undefined, dir: number): void;
  getComputedLayout(): LaidOut;
  freeRecursive(): void;
}

describe('Yoga compiled from the bundle (terminal/yoga-early.ts)', () => {
  it("takes exactly yoga-layout's module from the built bundle, which carries it once", () => {
    const bytes = wasmInBundle(bundle());
    expect(bytes).not.toBeNull();
    expect(bytes!.equals(packagedWasm())).toBe(true);
    // The bin and the app bundle meet at the same global: the bundle's edit of yoga-layout is wired in.
    const key = 'Symbol.for("omc-top.yoga-wasm")';
    expect(fs.readFileSync(path.join(REPO, 'dist', 'omc-top.mjs'), 'latin1')).toContain(key);
    expect(bundle().toString('latin1')).toContain(key);
  });

  it('finds nothing in a bundle without the module, with it twice, or cut short', () => {
    const url = '"data:application/octet-stream;base64,AGFzbQEAAAA="';
    expect(wasmInBundle(Buffer.from('export default (async function () {});'))).toBeNull();
    expect(wasmInBundle(Buffer.from(`a=${url};b=${url};`))).toBeNull();
    expect(wasmInBundle(Buffer.from(`a=${url.slice(0, -1)}`))).toBeNull();
    expect(wasmInBundle(Buffer.from(`a=${url};`))?.equals(Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]))).toBe(true);
  });

  it("Yoga's loader takes the compiled module and lays out as it does alone; the module is taken once", async () => {
    const alone = await layoutWith(undefined);
    precompileYoga(bundle());
    const options = yogaLoadOptions();
    expect(typeof options.instantiateWasm).toBe('function');
    expect(yogaLoadOptions()).toEqual({});
    expect(await layoutWith(options)).toEqual(alone);
    expect(alone[2]).toMatchObject({ left: 12, width: 28, height: 10 });
  });

  it('with nothing compiled (a bundle without the module), the loader is given no options', () => {
    precompileYoga(Buffer.from('export default (async function () {});'));
    expect(yogaLoadOptions()).toEqual({});
  });
});
