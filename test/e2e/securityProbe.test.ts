/**
 * The second security probe's two editor attacks, in a real VS Code (code-server), as the probe
 * performed them: a dataset name written into the shared catalog that holds Python code behind
 * 150 spaces is not offered by completion in a builder call (the widget showed it as
 * `db.users_v2` and Enter wrote the code into the file); a catalog description holding reference
 * definitions with an escaped bracket in the label renders no live `command:` or `file:` link in
 * the hover. The same attacks at the protocol level: test/reliability/insertionAttacks.test.ts and
 * test/reliability/untrustedText.test.ts.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSession, step, type E2eSession } from './harness';
import { ingestAspect } from './support/catalog';
import { E2E_ENABLED, E2E_SKIP_REASON } from './support/workspaceText';

const hive = (name: string): string => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const PAYLOAD = `db.users_v2${' '.repeat(150)}"%29; __import__%28"os"%29.system%28"id"%29; %28"`;
const SPELLED = 'db.users_v3%28old%29';
const FEATURE = 'urn:li:mlFeature:(probe_table,probe_feature)';
const LINEAGE_LINK =
  'command:catalogLens.showLineage?%7B%22item%22%3A%7B%22urn%22%3A%22urn%3Ali%3Adataset%3A(urn%3Ali%3AdataPlatform%3Ahive%2Cdb.renameme%2CPROD)%22%2C%22name%22%3A%22Approved%20by%20the%20security%20team%22%7D%7D';

describe('the second security probe in a real VS Code', { skip: !E2E_ENABLED && E2E_SKIP_REASON }, () => {
  let session: E2eSession;
  before(async () => {
    session = await startSession();
    for (const urn of [hive(PAYLOAD), hive(SPELLED)])
      await ingestAspect(session.catalog, 'dataset', urn, 'datasetProperties', {
        description: 'Users, version 2.',
        customProperties: {},
      });
    await ingestAspect(session.catalog, 'mlFeature', FEATURE, 'mlFeatureProperties', {
      description: `Read [the runbook][a\\]b] first; schema in [the spec][x\\]y].\n\n[a\\]b]: ${LINEAGE_LINK}\n[x\\]y]: file:///etc/passwd`,
    });
  });
  after(async () => {
    await session?.stop();
  });

  test('completion in a builder call offers no name hiding code; the name it offers is written as its URN spells it', async (t) => {
    await step(t, session, 'probe-completion', async () => {
      const wb = session.workbench;
      const page = wb.page;
      const file = 'pipelines/probe_complete.py';
      const typed = 'USERS = make_dataset_urn("hive", "db.users_v';
      writeFileSync(
        path.join(session.workspace, file),
        `from datahub.emitter.mce_builder import make_dataset_urn\n${typed}")\n`,
      );
      await wb.openFile(file);
      await wb.goToLine(2, typed.length + 1);
      const suggest = page.locator('.editor-widget.suggest-widget');
      await page.keyboard.press('Control+Space');
      const offered = suggest.locator('.monaco-list-row', { hasText: SPELLED }).first();
      await wb.waitFor(`the suggestions offering ${SPELLED} (after Control+Space)`, offered);
      const rows = await suggest.locator('.monaco-list-row').allInnerTexts();
      assert.ok(
        rows.every((r) => !r.includes('users_v2')),
        `no row for the name that hides code: ${JSON.stringify(rows)}`,
      );
      await wb.screenshot('probe-completion.png');
      await offered.click();
      await wb.waitFor('the suggestions closing', suggest, 'hidden');
      await wb.editorShows(`USERS = make_dataset_urn("hive", "${SPELLED}")`);
    });
  });

  test("a description's reference definitions with an escaped bracket render no live link in the hover", async (t) => {
    await step(t, session, 'probe-hover', async () => {
      const wb = session.workbench;
      const file = 'pipelines/probe_hover.py';
      writeFileSync(path.join(session.workspace, file), `FEATURE = "${FEATURE}"\n`);
      const { hover } = await wb.hoverOn(session.workspace, file, FEATURE, 'probe_feature', /the runbook/);
      // Shown as text, brackets and all; no anchor for either label.
      assert.match(hover, /\[the runbook\]\[a\\?\]b\]/);
      const point = await wb.revealText(1, `FEATURE = "${FEATURE}"`, 'probe_feature');
      await wb.hoverAt(point, /the runbook/);
      const anchors = await wb
        .hoverBox()
        .locator('a')
        .evaluateAll((as) =>
          as.map((a) => ({
            text: a.textContent ?? '',
            href: a.getAttribute('data-href') ?? a.getAttribute('href') ?? '',
          })),
        );
      await wb.screenshot('probe-hover.png');
      await wb.leaveHover();
      assert.deepEqual(
        anchors.filter((a) => /runbook|spec/.test(a.text) || /^(file:|vscode-remote:)/.test(a.href)),
        [],
        JSON.stringify(anchors),
      );
      for (const a of anchors)
        assert.ok(
          /^https?:/.test(a.href) || a.href.startsWith('command:catalogLens.showLineage?'),
          `only web links and the server's own lineage link: ${JSON.stringify(a)}`,
        );
      // The server's own lineage link carries the feature's URN, not the description's argument.
      for (const a of anchors.filter((x) => x.href.startsWith('command:')))
        assert.ok(!decodeURIComponent(a.href).includes('Approved by the security team'), a.href);
    });
  });
});
