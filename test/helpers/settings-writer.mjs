#!/usr/bin/env node
// A stand-in for Claude Code adding an "always allow" rule to a settings file as it does: read, add, write a temp
// file, rename it over. Run in steps so a test can put the read and the rename on either side of another write:
//   settings-writer.mjs add FILE RULE          read, add RULE, replace (one step)
//   settings-writer.mjs read FILE STASH        read FILE into STASH (the writer's view)
//   settings-writer.mjs write FILE STASH RULE  add RULE to the view in STASH, replace FILE with it
import fs from 'node:fs';

const [step, file, a, b] = process.argv.slice(2);
const replace = (doc) => {
  const tmp = `${file}.writer-tmp`;
  fs.writeFileSync(tmp, JSON.stringify(doc, null, 2));
  fs.renameSync(tmp, file);
};
const withRule = (text, rule) => {
  const doc = JSON.parse(text);
  doc.permissions ??= {};
  doc.permissions.allow ??= [];
  doc.permissions.allow.push(rule);
  return doc;
};
if (step === 'add') replace(withRule(fs.readFileSync(file, 'utf8'), a));
else if (step === 'read') fs.copyFileSync(file, a);
else if (step === 'write') replace(withRule(fs.readFileSync(a, 'utf8'), b));
else throw new Error(`unknown step ${step}`);
