/**
 * The kinds beyond datasets and ML entities in a real VS Code (code-server in Chromium), against the
 * local catalog with the sample data: hovering a user, a tag, a glossary term, a container and a
 * data job in the demo workspace's examples/pipelines/people_and_pipelines.py shows the catalog's
 * name beside the id, and each hover's "Open in catalog" link is the local catalog's page of that
 * kind. The screenshots land in docs/screenshots/ for the README.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSession, step, type E2eSession } from './harness';
import { E2E_ENABLED, E2E_SKIP_REASON, lineOf } from './support/workspaceText';

const FILE = 'pipelines/people_and_pipelines.py';

/** Each hover: the line holding the URN, the word hovered, what the hover says, the page path, the screenshot. */
const KIND_HOVERS: ReadonlyArray<{
  scenario: string;
  /** The name the catalog's page shows as its heading. */
  name: string;
  line: string;
  at: string;
  title: RegExp;
  more: RegExp;
  page: string;
  shot: string;
}> = [
  {
    scenario: 'hover-user',
    name: 'Alice Smith',
    line: 'OWNER = ',
    at: 'asmith',
    title: /User Alice Smith · asmith/,
    more: /Title: Data Engineer · Email: asmith@example\.com/,
    page: '/user/',
    shot: 'hover-user.png',
  },
  {
    scenario: 'hover-tag',
    name: 'GDPR',
    line: 'GDPR = ',
    at: 'gdpr',
    title: /Tag GDPR · gdpr/,
    more: /Personal data of EU residents\./,
    page: '/tag/',
    shot: 'hover-tag.png',
  },
  {
    scenario: 'hover-term',
    name: 'Sensitive Data',
    line: 'SENSITIVE = ',
    at: 'Sensitive',
    title: /Glossary term Sensitive Data · Classification\.Sensitive/,
    more: /Parent nodes: Classification/,
    page: '/glossaryTerm/',
    shot: 'hover-term.png',
  },
  {
    scenario: 'hover-container',
    name: 'analytics',
    line: 'ANALYTICS_DB = ',
    at: '25384e01',
    title: /Container analytics · 25384e01fcde1063114925e9661766e7/,
    more: /Type: Database · Platform: snowflake/,
    page: '/container/',
    shot: 'hover-container.png',
  },
  {
    scenario: 'hover-job',
    name: 'Load revenue',
    line: 'LOAD = ',
    at: 'load_revenue',
    title: /Data job Load revenue · load_revenue/,
    more: /Flow: Daily revenue · Orchestrator: airflow/,
    page: '/tasks/',
    shot: 'hover-job.png',
  },
];

describe('Hovers of every kind in a real VS Code', { skip: !E2E_ENABLED && E2E_SKIP_REASON }, () => {
  let session: E2eSession;
  before(async () => {
    session = await startSession({ firstFile: FILE });
  });
  after(async () => {
    await session?.stop();
  });

  for (const k of KIND_HOVERS) {
    test(`kind hovers: ${k.scenario} shows the catalog's name beside the id, and its page link`, async (t) => {
      await step(t, session, k.scenario, async () => {
        const wb = session.workbench;
        await wb.openFile(FILE);
        const line = lineOf(session.workspace, FILE, k.line);
        const hover = await wb.hoverAt(await wb.revealText(line.number, line.text, k.at), k.title);
        assert.match(hover, k.more);
        assert.deepEqual(await wb.hoverLinks(/^Open in catalog$/), [{ text: 'Open in catalog', inView: true }]);
        await wb.screenshot(k.shot);
        // The link VS Code renders (its markdown keeps the target in data-href) is this kind's page here.
        const link = wb.page.locator('.monaco-hover:visible a', { hasText: /^Open in catalog$/ }).first();
        const href = (await link.getAttribute('data-href')) ?? (await link.getAttribute('href')) ?? '';
        assert.ok(href.startsWith('http') && href.includes(k.page), `the link opens the ${k.page} page: ${href}`);
        const page = await fetch(href, { headers: { Accept: 'text/html' } });
        const body = await page.text();
        assert.equal(page.status, 200, `${href}: ${body.slice(0, 300)}`);
        assert.ok(body.includes(`<h1>${k.name}</h1>`), `${href} is the page of ${k.name}`);
      });
    });
  }
});
