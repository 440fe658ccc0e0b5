/**
 * The document links of a scan (server/src/features/links.ts `linksIn`): each page is built once
 * per distinct URN, and the links are the same as building the page of every occurrence on its
 * own (the plain reading kept here as the reference), on real ingestion files and on generated
 * text that repeats its URNs in every language the links are asked in. The pages built are counted
 * (a spy on the pages of model/src/entityPage.ts entityPageMaker): one per distinct URN.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, mock, test } from 'node:test';
import * as entityPage from '../../../model/src/entityPage';
import { DEFAULT_SETTINGS, type Settings } from '../../../model/src/protocol';
import { entityUrlFor, hoverPageUrl, linksIn } from '../../../server/src/features/links';
import { scanText } from '../../../server/src/pipeline/check';
import type { ScanResult } from '../../../server/src/scan/types';
import type { Urn } from '../../../model/src/urn';

const FIXTURES = path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures');
const WITH_URL: Settings = { ...DEFAULT_SETTINGS, url: 'http://catalog.test' };

/** The links as every occurrence's own page gives them. */
function eachOnItsOwn(scan: ScanResult, s: Settings): Array<{ start: number; end: number; target: string }> {
  return scan.occurrences.flatMap((o) => {
    if (o.template || !o.parsed?.ok || o.parent !== undefined) return [];
    const target = entityUrlFor(s, o.parsed.urn, o.urn);
    return target ? [{ start: o.start, end: o.end, target }] : [];
  });
}

/** The links of `scan`, with how many pages linksIn built for them (through entityPageMaker's pages). */
function countingPages(scan: ScanResult, s: Settings): { links: ReturnType<typeof linksIn>; built: number } {
  const maker = entityPage.entityPageMaker;
  let built = 0;
  const spy = mock.method(entityPage, 'entityPageMaker', (settings: entityPage.EntityPageSettings) => {
    const page = maker(settings);
    return (urn: Urn, text: string) => {
      built++;
      return page(urn, text);
    };
  });
  try {
    const links = linksIn(scan, s);
    assert.equal(spy.mock.callCount(), 1, 'the settings are read once per document');
    return { links, built };
  } finally {
    spy.mock.restore();
  }
}

/** The distinct URN texts a page is built for: outermost, parsed, no template. */
function distinctLinked(scan: ScanResult): number {
  return new Set(
    scan.occurrences.filter((o) => !o.template && o.parsed?.ok && o.parent === undefined).map((o) => o.urn),
  ).size;
}

/** Text in `languageId` that writes each URN of a small set many times, in the shapes links are made from. */
function repeated(languageId: string): string {
  const urns = [
    'urn:li:dataset:(urn:li:dataPlatform:hive,logging_events,PROD)',
    'urn:li:dataset:(urn:li:dataPlatform:kafka,value_topic,PROD)',
    'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD),browser_id)',
    'urn:li:corpuser:datahub',
    'urn:li:tag:Legacy',
    'urn:li:glossaryTerm:Classification.Sensitive',
    'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_abc,PROD),task_123)',
    'urn:svc:dataset:(urn:svc:dataPlatform:hive,db.users,PROD)',
    `urn:li:dataset:(urn:li:dataPlatform:hive,${'x'.repeat(2100)},PROD)`,
  ];
  const lines: string[] = [];
  for (let i = 0; i < 60; i++) {
    const urn = urns[i % urns.length]!;
    if (languageId === 'python') lines.push(`U_${i} = "${urn}"`, `D_${i} = make_dataset_urn("hive", "db.t_${i % 4}")`);
    else if (languageId === 'markdown') lines.push(`| row ${i} | \`${urn}\` |`, `The table \`${urn}\` and {urn} text.`);
    else if (languageId === 'yaml') lines.push(`k_${i}: "${urn}"`);
    else lines.push(`{"entityUrn": "${urn}", "actor": "urn:li:corpuser:unknown"},`);
  }
  return languageId === 'json' ? `[\n${lines.join('\n')}\n{}]\n` : lines.join('\n') + '\n';
}

describe('document links: one page per distinct URN', () => {
  test('real ingestion files: the same links as each occurrence on its own', () => {
    for (const file of [
      path.join(FIXTURES, 'datahub-golden', 'feast_repository_mces_golden.json'),
      path.join(FIXTURES, 'datahub-golden', 'catalog-lens-kinds.json'),
      path.join(FIXTURES, 'datahub-lineage', 'jobs-and-charts.json'),
    ]) {
      const scan = scanText(readFileSync(file, 'utf8'), 'json', WITH_URL);
      const { links, built } = countingPages(scan, WITH_URL);
      assert.ok(links.length > 0, file);
      assert.equal(built, distinctLinked(scan), `${file}: one page per distinct URN`);
      assert.ok(built < links.length, `${file}: URNs repeat (${built} pages, ${links.length} links)`);
      assert.deepEqual(links, eachOnItsOwn(scan, WITH_URL), file);
    }
  });

  test('repeated URNs in every language, with a custom page template and with no web UI', () => {
    const custom: Settings = { ...WITH_URL, entityUrlTemplate: '{uiUrl}/browse?urn={urn}' };
    for (const languageId of ['python', 'markdown', 'yaml', 'json']) {
      const scan = scanText(repeated(languageId), languageId, WITH_URL);
      for (const s of [WITH_URL, custom, DEFAULT_SETTINGS]) {
        const { links, built } = countingPages(scan, s);
        assert.deepEqual(links, eachOnItsOwn(scan, s), `${languageId} ${s.entityUrlTemplate} ${s.url}`);
        assert.equal(built, distinctLinked(scan), `${languageId}: one page built per distinct URN`);
        if (s === DEFAULT_SETTINGS) assert.equal(links.length, 0);
        else assert.ok(links.length >= 40, `${languageId}: ${links.length} links`);
      }
    }
  });

  test("a hover's kept page is the page entityUrlFor makes, whatever the settings in turn (differential)", () => {
    const custom: Settings = { ...WITH_URL, entityUrlTemplate: '{uiUrl}/browse?urn={urn}' };
    const ui: Settings = { ...WITH_URL, uiUrl: 'https://ui.test/' };
    const gms: Settings = { ...WITH_URL, url: 'http://catalog.test:8080/api/gms' };
    for (const languageId of ['python', 'markdown', 'yaml', 'json']) {
      const scan = scanText(repeated(languageId), languageId, WITH_URL);
      // Twice: the second round reads what the first kept.
      for (let round = 0; round < 2; round++)
        for (const s of [WITH_URL, custom, ui, gms, DEFAULT_SETTINGS])
          for (const o of scan.occurrences) {
            if (o.template || !o.parsed?.ok) continue;
            assert.equal(hoverPageUrl(s, o.parsed.urn, o.urn), entityUrlFor(s, o.parsed.urn, o.urn), o.urn);
          }
    }
  });
});
