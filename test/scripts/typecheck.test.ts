/**
 * `npm run typecheck` (scripts/typecheck.mjs, which `npm test` runs) checks every TypeScript and
 * JavaScript file of the repository: each is in one of its projects, and each project fails on a
 * type error. A file in no project would be compiled only if a test imports it, which is how a type
 * error in client/src/languageClient.ts once passed `npm test`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { REPO_ROOT } from '../support/shared';

interface TypecheckScript {
  PROJECTS: Array<{ config: string; holds: string }>;
  UNCHECKED: Record<string, string>;
}

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

function parseProject(config: string): ts.ParsedCommandLine {
  const file = path.join(REPO_ROOT, config);
  const parsed = ts.getParsedCommandLineOfConfigFile(
    file,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    },
  );
  assert.ok(parsed, `${config} could not be read`);
  assert.deepEqual(parsed.errors, [], `${config}: ${parsed.errors.map((e) => e.messageText).join('; ')}`);
  return parsed;
}

/** The repository's files as git sees them: tracked and new ones, not the ignored (node_modules, out, dist). */
function repositoryFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(listed.split('\0'))].filter((f) => f !== '' && existsSync(path.join(REPO_ROOT, f)));
}

describe('npm run typecheck', () => {
  let script: TypecheckScript;
  before(async () => {
    const url = pathToFileURL(path.join(REPO_ROOT, 'scripts', 'typecheck.mjs')).href;
    script = (await import(url)) as TypecheckScript;
  });

  test('every TypeScript and JavaScript file is in one of its projects, or named in UNCHECKED with a reason', () => {
    const checked = new Set<string>();
    for (const { config } of script.PROJECTS) {
      for (const f of parseProject(config).fileNames)
        checked.add(path.relative(REPO_ROOT, f).split(path.sep).join('/'));
    }
    const sources = repositoryFiles().filter((f) => SOURCE.test(f));
    assert.ok(sources.length > 100, `only ${sources.length} source files listed: is ${REPO_ROOT} a git checkout?`);
    const missing = sources.filter((f) => !checked.has(f) && !(f in script.UNCHECKED));
    assert.deepEqual(missing, [], 'in no project of scripts/typecheck.mjs: add them to one, or to UNCHECKED with why');
    for (const [file, why] of Object.entries(script.UNCHECKED)) {
      assert.ok(sources.includes(file), `UNCHECKED names ${file}, which is not in the repository`);
      assert.ok(!checked.has(file), `UNCHECKED names ${file}, which a project checks`);
      assert.ok(why.length > 0, `UNCHECKED gives no reason for ${file}`);
    }
  });

  test('each project reports a type error in a file of its own, and nothing else about that file', () => {
    for (const { config } of script.PROJECTS) {
      const parsed = parseProject(config);
      const js = parsed.options.allowJs === true;
      // The probe sits, in memory only, beside the project's tsconfig, so it gets that project's context.
      const probe = path.join(path.dirname(path.join(REPO_ROOT, config)), `typecheckProbe.${js ? 'mjs' : 'ts'}`);
      const text = js
        ? "/** @type {number} */\nexport const n = 'not a number';\n"
        : "export const n: number = 'not a number';\n";
      const host = ts.createCompilerHost(parsed.options);
      const getSourceFile = host.getSourceFile.bind(host);
      host.getSourceFile = (name, languageVersion, ...rest) =>
        path.resolve(name) === probe
          ? ts.createSourceFile(name, text, languageVersion, true)
          : getSourceFile(name, languageVersion, ...rest);
      const fileExists = host.fileExists.bind(host);
      host.fileExists = (name) => path.resolve(name) === probe || fileExists(name);
      const program = ts.createProgram({ rootNames: [probe], options: parsed.options, host });
      const found = ts
        .getPreEmitDiagnostics(program)
        .map((d) => `${d.file ? path.relative(REPO_ROOT, d.file.fileName) : '-'}: TS${d.code}`);
      assert.deepEqual(found, [`${path.relative(REPO_ROOT, probe)}: TS2322`], config);
    }
  });
});
