/**
 * The fixtures' directories outlive the test's own `onTestFinished` hooks (where a test stops the children it
 * started: a serve, a watch), and are gone after them. vitest cleans fixtures up before those hooks, so without
 * helpers/it.ts's removeAfterTheTest a child still writing its state under the project raced the removal
 * (`ENOTEMPTY`, seen on a loaded machine in the json-fields test).
 */
import fs from 'node:fs';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';

const seen: string[] = [];

describe('the fixtures and onTestFinished', () => {
  it("a test's own onTestFinished hook still finds the fixtures' directories", async ({
    project,
    emptyProject,
    newProject,
    tempDir,
    claudeDir,
  }) => {
    seen.push(project.dir, emptyProject.dir, newProject().dir, tempDir(), claudeDir);
    onTestFinished(() => {
      expect(seen.filter((d) => !fs.existsSync(d))).toEqual([]);
    });
  });

  it('and they are removed after it', () => {
    expect(seen).toHaveLength(5);
    expect(seen.filter((d) => fs.existsSync(d))).toEqual([]);
  });
});
