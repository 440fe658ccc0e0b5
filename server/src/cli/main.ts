/**
 * The command line's process entry: `catalog-lens check [paths…] [options]` and
 * `catalog-lens mcp [folder]` (see options.ts USAGE).
 * The report goes to standard output or --output; progress and notices to standard error.
 * Exit codes: 0 clean, 1 findings at or above --fail-on, 2 bad usage or settings, 3 the catalog
 * could not be asked.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { PRODUCT_VERSION } from '../../../model/src/version';
import { pathProblems, runCheck } from './check';
import { serveMcp } from './mcp';
import { parseCheckArgs, USAGE } from './options';
import { exitCode, formatJson, formatSarif, formatText, summaryLine, visibleText } from './report';

async function main(): Promise<number> {
  const parsed = parseCheckArgs(process.argv.slice(2), process.env, {
    cwd: process.cwd(),
    stderrIsTerminal: process.stderr.isTTY === true,
    readText: (path) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined),
  });
  if ('error' in parsed) {
    process.stderr.write(`catalog-lens: ${parsed.error}\n`);
    return 2;
  }
  if (parsed.command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (!('options' in parsed)) {
    process.stdout.write(`catalog-lens ${PRODUCT_VERSION}\n`);
    return 0;
  }
  const options = parsed.options;
  if (parsed.command === 'mcp') {
    const folder = options.paths[0] ?? '.';
    if (!existsSync(folder) || !statSync(folder).isDirectory()) {
      process.stderr.write(`catalog-lens: ${folder}: no such folder\n`);
      return 2;
    }
    // Standard output is the protocol's: every notice goes to standard error, on one line.
    await serveMcp(options, {
      env: process.env,
      cwd: process.cwd(),
      note: (m) => process.stderr.write(`${visibleText(m)}\n`),
    });
    return 0;
  }
  const problems = pathProblems(options.paths, process.cwd());
  if (problems.length > 0) {
    for (const p of problems) process.stderr.write(`catalog-lens: ${p}\n`);
    return 2;
  }
  const report = await runCheck(options, {
    env: process.env,
    cwd: process.cwd(),
    // Notices may quote the catalog's or the repository's text: one visible line each (report.ts).
    note: (m) => process.stderr.write(`${visibleText(m)}\n`),
  });
  const text =
    options.format === 'sarif'
      ? formatSarif(report)
      : options.format === 'json'
        ? formatJson(report)
        : formatText(report);
  if (options.output !== undefined) {
    writeFileSync(options.output, text);
    process.stderr.write(`${summaryLine(report)}; report in ${options.output}\n`);
  } else {
    process.stdout.write(text);
  }
  if (report.catalogProblem !== undefined && options.format !== 'text')
    process.stderr.write(`catalog-lens: the catalog could not be asked: ${visibleText(report.catalogProblem)}\n`);
  return exitCode(report, options.failOn);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`catalog-lens: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 2;
  },
);
