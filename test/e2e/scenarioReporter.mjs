// A node:test reporter for the e2e runner (test/e2e/run.mjs): one JSON line per scenario result,
// which the runner adds up over the rounds of `--repeat N`. A scenario is a leaf test; its name is
// the step name the harness announces as a diagnostic ("scenario: search-pick", harness.ts
// step()), which node:test reports right after the test's own result. A test that never reached
// its step (its block's `before` failed) has its test name. A block (describe) that failed outside
// any test, e.g. an `after` hook, is a line of kind "block".
//
//   {"kind":"scenario","file":"…/search.test.js","test":"Catalog: Search…","scenario":"search-pick","ok":true}
//   {"kind":"block","file":"…","test":"the lineage view","ok":false}

const SCENARIO_DIAGNOSTIC = /^scenario: (.+)$/;

/** @param {AsyncIterable<{ type: string, data: any }>} source */
export default async function* scenarioReporter(source) {
  /** @type {{ kind: string, file: string, test: string, nesting: number, scenario?: string, ok: boolean } | undefined} */
  let last;
  const flush = function* () {
    if (!last) return;
    const { nesting: _nesting, ...line } = last;
    last = undefined;
    yield `${JSON.stringify(line)}\n`;
  };
  for await (const { type, data } of source) {
    if (type === 'test:pass' || type === 'test:fail') {
      yield* flush();
      const skipped =
        (data.skip !== undefined && data.skip !== false) || (data.todo !== undefined && data.todo !== false);
      if (skipped) continue;
      const block = data.details?.type === 'suite';
      // A block fails when one of its tests does; only a failure of its own (a hook) is reported.
      if (block && (type === 'test:pass' || data.details?.error?.failureType === 'subtestsFailed')) continue;
      last = {
        kind: block ? 'block' : 'scenario',
        file: data.file ?? '',
        test: data.name,
        nesting: data.nesting,
        ok: type === 'test:pass',
      };
    } else if (type === 'test:diagnostic' && last && data.nesting === last.nesting) {
      const m = SCENARIO_DIAGNOSTIC.exec(data.message);
      if (m?.[1] !== undefined) last.scenario = m[1];
    }
  }
  yield* flush();
}
