/**
 * Bad input to the server, in process for volume: random and mutated URN text, random YAML,
 * binary junk, lines of a megabyte and parentheses nested ten thousand deep, through scanning,
 * parsing, diagnostics, hover and code actions. No exception escapes a request, no request runs
 * past a bound (a hang detector: 15 s for one request, far above the slowest seen — under 1 s alone,
 * 4.5 s on a 2-core machine running three suites at once — so that it catches a hang, such as
 * backtracking gone exponential, and not a busy machine; speed is measured in bench/, not here), every malformed URN gets a diagnostic,
 * and hovers stay inert and bounded. The input count is printed at the end (`fuzz inputs: N`).
 *
 * Seeds vary per run; a failure prints fast-check's seed and path (set FUZZ_SEED to replay).
 */
import assert from 'node:assert/strict';
import { after, describe, test, type TestContext } from 'node:test';
import fc from 'fast-check';
import { parseUrn } from '../../model/src/urn';
import { exercise, FuzzLedger } from './support/exercise';
import {
  anyUrnText,
  binaryJunk,
  codeDocument,
  embeddings,
  EXTRACTOR_LANGUAGES,
  hugeInputs,
  LANGUAGES,
  malformedUrn,
  mutatedUrn,
  yamlDocument,
} from './support/fuzzInputs';
import { lookupIn, syntheticCatalog } from './support/syntheticCatalog';

const HANG_BOUND_MS = 15_000;
const seed = process.env['FUZZ_SEED'] ? Number(process.env['FUZZ_SEED']) : undefined;
/**
 * Two profiles: `long` (every input count below, at least 100,000 inputs), what CI runs (CI=true),
 * and `quick` (a fifth of them, at least 20,000), what `npm test` runs on a developer's machine.
 * FUZZ_PROFILE=long|quick chooses; FUZZ_SCALE below the profile's shortens a run (the input count
 * check then fails, as it should).
 */
const profile = process.env['FUZZ_PROFILE'] ?? (process.env['CI'] === 'true' ? 'long' : 'quick');
const PROFILE_SCALE = profile === 'long' ? 1 : 0.2;
const MIN_INPUTS = 100_000 * PROFILE_SCALE;
const scale = (process.env['FUZZ_SCALE'] ? Number(process.env['FUZZ_SCALE']) : 1) * PROFILE_SCALE;
const params = (numRuns: number): fc.Parameters<unknown> => ({
  numRuns: Math.max(1, Math.round(numRuns * scale)),
  ...(seed !== undefined ? { seed } : {}),
});

describe('bad input to the server (in process, fuzz)', () => {
  const ledger = new FuzzLedger();
  let parserInputs = 0;

  const noProblems = (problems: string[]): void => assert.deepEqual(problems, []);
  const withinBound = (t: TestContext): void => {
    t.diagnostic(ledger.summary());
    for (const [kind, { ms, what }] of Object.entries(ledger.slowest)) {
      assert.ok(
        ms < HANG_BOUND_MS,
        `a ${kind} request took ${ms.toFixed(0)} ms (bound ${HANG_BOUND_MS} ms) on ${what}`,
      );
    }
  };

  // In all: at least MIN_INPUTS inputs, and no request ran past HANG_BOUND_MS. A hook, not a test:
  // it holds for the whole block once every test of it has run, whatever their order. A run
  // filtered by test name (--test-name-pattern, --test-only, or one test alone by
  // scripts/testAlone.mjs) runs part of the block: it says so.
  after(() => {
    const total = ledger.inputs + parserInputs;
    console.log(
      `fuzz inputs (${profile} profile): ${total} (${ledger.inputs} documents through scan, diagnostics, hover and code actions; ${parserInputs} URN texts through parseUrn); ${ledger.summary()}`,
    );
    const filtered =
      process.execArgv.some((a) => a.startsWith('--test-name-pattern') || a === '--test-only') ||
      process.env['CATALOG_LENS_TEST_ONLY'] !== undefined;
    if (filtered) {
      console.log(`a run filtered by test name: the total of ${MIN_INPUTS} inputs is not checked`);
      return;
    }
    assert.ok(total >= MIN_INPUTS, `only ${total} inputs`);
    for (const [kind, { ms, what }] of Object.entries(ledger.slowest)) {
      assert.ok(
        ms < HANG_BOUND_MS,
        `a ${kind} request took ${ms.toFixed(0)} ms (bound ${HANG_BOUND_MS} ms) on ${what}`,
      );
    }
  });

  test('parseUrn: random, assembled and mutated URN texts never throw and keep the error range inside the text (20,000 texts)', (t) => {
    let slowest = 0;
    fc.assert(
      fc.property(fc.oneof(anyUrnText, binaryJunk, fc.string({ unit: 'binary', maxLength: 80 })), (text) => {
        const t0 = performance.now();
        const r = parseUrn(text);
        slowest = Math.max(slowest, performance.now() - t0);
        parserInputs++;
        if (!r.ok) {
          assert.ok(
            r.error.offset >= 0 && r.error.length >= 0 && r.error.offset + r.error.length <= text.length,
            `error range of ${JSON.stringify(text)}`,
          );
          assert.ok(r.error.message.length > 0);
        }
      }),
      params(20_000),
    );
    t.diagnostic(`slowest parse ${slowest.toFixed(2)} ms`);
    assert.ok(slowest < HANG_BOUND_MS);
  });

  test('every malformed URN written as one token gets a malformed-urn diagnostic inside it, in every host language (3,000 URNs, each in 8 to 11 documents)', (t) => {
    const samples: Record<string, number> = {};
    fc.assert(
      fc.property(malformedUrn, ({ family, text }) => {
        assert.equal(parseUrn(text).ok, false, `the ${family} generator made a valid URN: ${text}`);
        samples[family] = (samples[family] ?? 0) + 1;
        for (const e of embeddings(text)) {
          const { diagnostics, problems } = exercise(e.languageId, e.text, ledger);
          noProblems(problems);
          const inside = diagnostics.filter((d) => d.code === 'malformed-urn' && d.start >= e.start && d.end <= e.end);
          assert.ok(
            inside.length > 0,
            `${family}: no malformed-urn diagnostic inside ${JSON.stringify(e.text.slice(e.start, e.end))} of the ${e.languageId} document ${JSON.stringify(e.text)}; got ${JSON.stringify(diagnostics)}`,
          );
        }
      }),
      params(3000),
    );
    t.diagnostic(`families: ${JSON.stringify(samples)}`);
    withinBound(t);
  });

  test('valid URNs mutated by one character, still one token and no longer valid, get a malformed-urn diagnostic inside them (2,000 URNs)', (t) => {
    fc.assert(
      fc.property(
        mutatedUrn.filter((text) => !parseUrn(text).ok),
        (text) => {
          for (const e of embeddings(text)) {
            const { diagnostics, problems } = exercise(e.languageId, e.text, ledger);
            noProblems(problems);
            assert.ok(
              diagnostics.some((d) => d.code === 'malformed-urn' && d.start >= e.start && d.end <= e.end),
              `no malformed-urn diagnostic inside ${JSON.stringify(text)} in the ${e.languageId} document ${JSON.stringify(e.text)}; got ${JSON.stringify(diagnostics)}`,
            );
          }
        },
      ),
      params(2000),
    );
    withinBound(t);
  });

  test('random code documents against a random hostile catalog: no throw, ranges inside, hovers and messages inert and bounded (25,000 documents)', (t) => {
    fc.assert(
      fc.property(codeDocument, syntheticCatalog, fc.boolean(), ({ languageId, text }, cat, trusted) => {
        noProblems(
          exercise(languageId, text, ledger, { lookup: lookupIn(cat), trusted, checkMessages: true }).problems,
        );
      }),
      params(25_000),
    );
    withinBound(t);
  });

  test('random YAML, well-formed and broken, against a random hostile catalog (12,000 documents)', (t) => {
    fc.assert(
      fc.property(yamlDocument, syntheticCatalog, fc.boolean(), (text, cat, trusted) => {
        noProblems(exercise('yaml', text, ledger, { lookup: lookupIn(cat), trusted, checkMessages: true }).problems);
      }),
      params(12_000),
    );
    withinBound(t);
  });

  test('binary junk and random Unicode in every language (10,000 documents)', (t) => {
    fc.assert(
      fc.property(
        fc.oneof(binaryJunk, fc.string({ unit: 'binary', maxLength: 400 })),
        fc.constantFrom(...LANGUAGES),
        (text, languageId) => {
          noProblems(exercise(languageId, text, ledger).problems);
        },
      ),
      params(10_000),
    );
    withinBound(t);
  });

  test('lines of a megabyte and nesting ten thousand deep, in each extractor (YAML, Python, text)', (t) => {
    for (const { name, text } of hugeInputs()) {
      for (const languageId of EXTRACTOR_LANGUAGES) {
        const { problems } = exercise(languageId, text, ledger);
        assert.deepEqual(problems.slice(0, 5), [], `${name} as ${languageId}`);
      }
    }
    withinBound(t);
  });
});
