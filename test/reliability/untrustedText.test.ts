/**
 * Text from the catalog is untrusted: descriptions, names, paths, types and error bodies holding
 * HTML, `<script>`, `command:` links (inline, nested, across lines, as reference definitions),
 * images, a megabyte of text, and control, bidirectional and zero-width characters render inert,
 * visible and cut to a bound wherever they are shown (text from the document: documentText.test.ts): hovers over LSP (Markdown), and the plain-text messages —
 * write-command failures that quote a catalog's error body, status notifications, diagnostics,
 * connection tests — where VS Code's notifications would turn `[label](command:…)` into a link.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { codeSpan, escapeMarkdown, noCodeSpans, safeDescription, tableCell } from '../../server/src/features/markdown';
import { LineageRequest, type LineageResult } from '../../model/src/protocol';
import { ingestBatch } from '../support/catalogHttp';
import { S, sampleCatalog, serverFor, type Catalog } from '../support/fixture';
import { hoverText, positionOf, type LspSession } from '../support/lspClient';
import { hostileText } from './support/fuzzInputs';
import { activeMarkdown, activeMessage, renderedActive } from './support/inert';

const MB = 1 << 20;
/** Everything at once, then a megabyte. */
const HOSTILE =
  [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(2)>',
    '[run](command:workbench.action.terminal.new)',
    '[a [b] c](command:evil)',
    '[a\nb](command:evil)',
    '![pixel](https://tracker.example/p.png)',
    '- [ref]: command:evil',
    '[ref]',
    '<command:evil>',
    '[file](file:///etc/passwd)',
    '\u0000\u0007\u001b[31m\u009b\u202e\u2066',
    '\u200b\ufeff\u2060\u00ad',
    '[z]\u200b(command:evil)',
    '`a|b`',
    '| x | y |',
  ].join(' \n') + ` ${'A'.repeat(MB)}`;
const HOSTILE_NAME = 'n<img src=x onerror=alert(1)>[x](command:evil)|\\|\u200b';
const MAX_HOVER = 25_000;
const MAX_MESSAGE = 1000;

const model = (name: string): string => `urn:li:mlModel:(urn:li:dataPlatform:mlflow,${name},PROD)`;
const group = (name: string): string => `urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,${name},PROD)`;
const EVIL_DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.evil,PROD)';
const EVIL_FEATURE = 'urn:li:mlFeature:(evil_table,evil)';
const EVIL_TABLE = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,evil_table)';
const EVIL_MODEL = model('evil-model');
const EVIL_GROUP = group('evil-group');

describe('untrusted catalog text in hovers (over LSP, the real local catalog)', () => {
  let catalog: Catalog;
  let lsp: LspSession;
  before(async () => {
    catalog = await sampleCatalog();
    const status = await ingestBatch(catalog.url, [
      { entityType: 'dataset', urn: EVIL_DATASET, aspectName: 'datasetProperties', value: { description: HOSTILE } },
      {
        entityType: 'dataset',
        urn: EVIL_DATASET,
        aspectName: 'schemaMetadata',
        value: {
          fields: [
            { fieldPath: HOSTILE_NAME, description: HOSTILE },
            { fieldPath: `${'[version=2.0].'}${HOSTILE_NAME}`, description: '<b>bold</b>' },
            ...Array.from({ length: 40 }, (_, i) => ({
              fieldPath: `c${i}<script>`,
              description: `[c${i}](command:evil${i})`,
            })),
          ],
        },
      },
      {
        entityType: 'mlFeature',
        urn: EVIL_FEATURE,
        aspectName: 'mlFeatureProperties',
        value: { description: HOSTILE, dataType: 'TEXT', version: { versionTag: HOSTILE_NAME } },
      },
      {
        entityType: 'mlFeatureTable',
        urn: EVIL_TABLE,
        aspectName: 'mlFeatureTableProperties',
        value: {
          description: HOSTILE,
          mlFeatures: Array.from({ length: 500 }, (_, i) => `urn:li:mlFeature:(evil_table,f${i}<img src=x>\`|)`),
        },
      },
      {
        entityType: 'mlModel',
        urn: EVIL_MODEL,
        aspectName: 'mlModelProperties',
        value: {
          description: HOSTILE,
          type: HOSTILE_NAME,
          version: HOSTILE_NAME,
          groups: Array.from({ length: 3000 }, (_, i) => group(`g${i}<script>alert ${i}</script>`)),
          mlFeatures: Array.from({ length: 500 }, (_, i) => `urn:li:mlFeature:(t,x${i}[a]%28command:y%29<b>)`),
        },
      },
      {
        entityType: 'mlModelGroup',
        urn: EVIL_GROUP,
        aspectName: 'mlModelGroupProperties',
        value: { description: HOSTILE },
      },
    ]);
    assert.equal(status, 200);
    lsp = await serverFor(catalog.url);
  });
  after(async () => {
    await lsp.stop();
    await catalog.close();
  });

  for (const [kind, urn, needle] of [
    ['dataset (description and a table of hostile columns)', EVIL_DATASET, 'db.evil'],
    ['ML feature', EVIL_FEATURE, 'evil)'],
    ['feature table (500 hostile feature names)', EVIL_TABLE, 'evil_table)'],
    ['ML model (3000 hostile group names, 500 features, hostile type and version)', EVIL_MODEL, 'evil-model'],
    ['model group', EVIL_GROUP, 'evil-group'],
  ] as const) {
    test(`${kind}: the hover is inert and bounded`, async () => {
      const uri = `file:///w/untrusted-${needle.replace(/\W/g, '')}.py`;
      const text = `x = "${urn}"\n`;
      await lsp.open(uri, 'python', text);
      const h = hoverText(await lsp.hover(uri, positionOf(text, needle)));
      assert.ok(h.length > 100, h);
      assert.deepEqual(
        activeMarkdown(h, (t) => t.startsWith(catalog.url)),
        [],
      );
      assert.ok(h.length <= MAX_HOVER, `the hover is ${h.length} characters`);
    });
  }

  test('a column named in YAML beside the hostile dataset: its hover is inert too', async () => {
    const yaml = `datasets:\n  - urn: ${EVIL_DATASET}\n    columns:\n      - name: c3<script>\n`;
    await lsp.open('file:///w/untrusted-col.yml', 'yaml', yaml);
    const h = hoverText(await lsp.hover('file:///w/untrusted-col.yml', positionOf(yaml, 'c3<script>', 1)));
    assert.match(h, /Column `c3<script>`/);
    assert.deepEqual(activeMarkdown(h), []);
  });

  test('a diagnostic that quotes the catalog (near column names) is one plain, bounded line', async () => {
    const yaml = `datasets:\n  - urn: ${EVIL_DATASET}\n    columns:\n      - name: c1\n`;
    await lsp.open('file:///w/untrusted-diag.yml', 'yaml', yaml);
    const ds = await lsp.diagnostics('file:///w/untrusted-diag.yml', (d) => d.some((x) => x.code === 'unknown-column'));
    for (const d of ds) assert.deepEqual(activeMessage(String(d.message), MAX_MESSAGE), [], String(d.message));
    assert.match(String(ds.find((d) => d.code === 'unknown-column')!.message), /did you mean c1<script>/);
  });
});

describe('untrusted catalog text in the diagnostics a generic client reads in its hover (over LSP)', () => {
  const EVIL_OLD = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.evil_old,PROD)';
  let catalog: Catalog;
  let lsp: LspSession;
  before(async () => {
    catalog = await sampleCatalog();
    const status = await ingestBatch(catalog.url, [
      {
        entityType: 'dataset',
        urn: EVIL_OLD,
        aspectName: 'datasetProperties',
        value: { name: 'evil_old', description: 'Old.' },
      },
      {
        entityType: 'dataset',
        urn: EVIL_OLD,
        aspectName: 'deprecation',
        value: { deprecated: true, note: HOSTILE, actor: 'urn:li:corpuser:datahub' },
      },
      {
        entityType: 'dataset',
        urn: EVIL_DATASET,
        aspectName: 'schemaMetadata',
        value: { fields: [{ fieldPath: `c1${HOSTILE_NAME}`, description: 'x' }] },
      },
    ]);
    assert.equal(status, 200);
    lsp = await serverFor(catalog.url, { genericClient: true });
  });
  after(async () => {
    await lsp?.stop();
    await catalog?.close();
  });

  test("a deprecation note and a near column name from the catalog: the hover's messages are inert and bounded", async () => {
    const py = `x = "${EVIL_OLD}"\n`;
    await lsp.open('file:///w/evil-old.py', 'python', py);
    await lsp.diagnostics('file:///w/evil-old.py', (d) => d.some((x) => x.code === 'deprecated-urn'));
    const old = hoverText(await lsp.hover('file:///w/evil-old.py', positionOf(py, 'evil_old')));
    assert.match(old, /^\*\*Warning\*\*: Dataset db\.evil\\_old is deprecated: /);
    assert.deepEqual(
      activeMarkdown(old, (t) => t.startsWith(catalog.url)),
      [],
    );
    assert.ok(old.length <= MAX_HOVER, `the hover is ${old.length} characters`);
    const yaml = `datasets:\n  - urn: ${EVIL_DATASET}\n    columns:\n      - name: c1\n`;
    await lsp.open('file:///w/evil-col.yml', 'yaml', yaml);
    await lsp.diagnostics('file:///w/evil-col.yml', (d) => d.some((x) => x.code === 'unknown-column'));
    const col = hoverText(await lsp.hover('file:///w/evil-col.yml', positionOf(yaml, 'c1', 1)));
    assert.match(col, /^\*\*Warning\*\*: Column 'c1' is not in the catalog's schema/);
    assert.deepEqual(activeMarkdown(col), []);
  });
});

describe('untrusted text through the Markdown helpers (property)', () => {
  test('what looks like a reference definition without being one (empty label, no destination yet) is escaped too', () => {
    // Found by the property below (seed 1831707286): `[]:` was left as written.
    for (const t of ['[]:', '[x]:', '- []: a', '1. [q]:', '   [ ]:\nhttp://evil.example', '`a\n[z]: command:evil`']) {
      assert.deepEqual(
        activeMarkdown(safeDescription(t)),
        [],
        `${JSON.stringify(t)} → ${JSON.stringify(safeDescription(t))}`,
      );
    }
  });

  test("the second probe's reference definitions: an escaped bracket in the label, a label over two lines", () => {
    const lineage =
      'command:catalogLens.showLineage?%7B%22item%22%3A%7B%22urn%22%3A%22urn%3Ali%3Adataset%3A(x)%22%2C%22name%22%3A%22Approved%22%7D%7D';
    for (const t of [
      `Read [the runbook][a\\]b] first; schema in [the spec][x\\]y].\n\n[a\\]b]: ${lineage}\n[x\\]y]: file:///etc/passwd`,
      `Read [the runbook][a\nb] first.\n\n[a\nb]: ${lineage}`,
      `Source table: [db.orders][o\\]1].\n\n[o\\]1]: command:catalogLens.showLineage?%7B%7D`,
      '[a\\\\]: command:x\n[a\\\\]',
      '\\[a](command:x)',
      '\\\\[a](command:x)',
      '[a](https://ok.example) [b](command:x) [c](file:///etc/passwd)',
    ]) {
      const out = safeDescription(t);
      assert.deepEqual(renderedActive(out), [], `${JSON.stringify(t)} → ${JSON.stringify(out)}`);
      assert.deepEqual(activeMarkdown(out), [], `${JSON.stringify(t)} → ${JSON.stringify(out)}`);
    }
    assert.ok(renderedActive(`[x\\]y]\n\n[x\\]y]: command:evil`).length > 0, 'the oracle sees the raw attack');
    assert.equal(safeDescription('[docs](https://ok.example/a b)'), '\\[docs\\](https://ok.example/a b)');
    assert.equal(safeDescription('see [docs](https://ok.example/a)'), 'see [docs](https://ok.example/a)');
  });

  test('a bracket inside the label makes no definition, even inside a code span (seed -1006328388)', () => {
    // The checker once blanked code spans before looking for definitions and let a label hold `[`.
    assert.deepEqual(activeMarkdown('[`[y]`- [z]: command:evil'), []);
    assert.deepEqual(activeMarkdown(safeDescription('[`[y]`- [z]: command:evil')), []);
    assert.notDeepEqual(activeMarkdown('[`y`- z]: command:evil'), [], 'a code span in a label is still a label');
    assert.deepEqual(activeMarkdown(safeDescription('[`y`- z]: command:evil')), []);
  });

  test("a column description's lone backtick cannot open a code span that closes in the next column's line (fuzz seed of the column lines)", () => {
    // Two column lines of one paragraph: the first description's backtick would pair with the
    // second line's name span and leave <script> between them outside any span.
    const lines = (d: string) =>
      `${codeSpan('user_id')} — ${d}  \n${codeSpan('<script>alert(1)</script>')} — _no description_`;
    assert.notDeepEqual(activeMarkdown(lines(tableCell('`'))), [], 'the raw cell is the hole');
    assert.deepEqual(activeMarkdown(lines(noCodeSpans(tableCell('`')))), []);
    assert.deepEqual(activeMarkdown(lines(noCodeSpans(tableCell('a ``b` c \\` d')))), []);
    assert.equal(noCodeSpans('already \\` escaped'), 'already \\` escaped');
  });

  test('safeDescription, tableCell, escapeMarkdown and codeSpan make hostile text inert and bounded (40,000 texts)', () => {
    let n = 0;
    fc.assert(
      fc.property(hostileText, (t) => {
        n++;
        for (const [name, out, max] of [
          ['safeDescription', safeDescription(t), 1500 * 5 + 10],
          ['tableCell', tableCell(t), 120 * 5 + 10],
          ['escapeMarkdown', escapeMarkdown(t), 200 * 2],
          ['codeSpan', codeSpan(t), 200 + 2],
        ] as const) {
          const wrapped = name === 'tableCell' ? `| c | ${out} |` : out;
          assert.deepEqual(
            activeMarkdown(name === 'codeSpan' ? `x ${out} y` : wrapped),
            [],
            `${name}(${JSON.stringify(t)}) = ${JSON.stringify(out)}`,
          );
          assert.ok(out.length <= max, `${name} made ${out.length} characters`);
          if (name !== 'safeDescription') assert.ok(!out.includes('\n'), `${name} stays on one line`);
        }
      }),
      { numRuns: 40_000 },
    );
    console.log(`markdown helper inputs: ${n}`);
  });
});

/** A catalog that answers whatever the test sets, on 127.0.0.1. */
interface HostileCatalog {
  url: string;
  answer: (req: IncomingMessage, body: string, res: ServerResponse) => void;
  close(): Promise<void>;
}

async function hostileCatalog(): Promise<HostileCatalog> {
  const state: HostileCatalog = {
    url: '',
    answer: (_q, _b, res) => res.writeHead(500).end(),
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => state.answer(req, Buffer.concat(chunks).toString(), res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return state;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
};
/** The dataset exists (so a write gets as far as the write), with an empty schema. */
const DATASET_FOUND = {
  data: {
    e0: {
      urn: S.users,
      name: 'db.users',
      properties: { description: 'x' },
      editableProperties: null,
      schemaMetadata: { fields: [{ fieldPath: 'age', description: null }] },
      editableSchemaMetadata: null,
    },
  },
};

describe('untrusted catalog text in plain-text messages (write failures, status, connection test)', () => {
  let hostile: HostileCatalog;
  let aspectsPath: LspSession;
  let graphqlPath: LspSession;
  before(async () => {
    hostile = await hostileCatalog();
    aspectsPath = await serverFor(hostile.url, { settings: { requestTimeoutMs: 2000 } });
    graphqlPath = await serverFor(hostile.url, { settings: { requestTimeoutMs: 2000, writePath: 'graphql' } });
  });
  after(async () => {
    console.log(
      `untrusted text: ${CASES.length} hostile catalog answers checked in write failures, status and connection tests`,
    );
    await aspectsPath.stop();
    await graphqlPath.stop();
    await hostile.close();
  });

  const isGraphql = (req: IncomingMessage): boolean => req.url === '/api/graphql';
  const CASES: Array<{ name: string; session: () => LspSession; answer: HostileCatalog['answer']; expect: RegExp }> = [
    {
      name: 'a GraphQL error (no data)',
      session: () => aspectsPath,
      answer: (_q, _b, res) => json(res, 200, { errors: [{ message: HOSTILE }], data: null }),
      expect: /answered a GraphQL error: <script>/,
    },
    {
      name: 'a GraphQL error beside partial data',
      session: () => aspectsPath,
      answer: (_q, _b, res) => json(res, 200, { data: { e0: null }, errors: [{ message: HOSTILE, path: ['e0'] }] }),
      expect: /api\/graphql: <script>/,
    },
    {
      name: 'a 500 whose JSON body has a message',
      session: () => aspectsPath,
      answer: (_q, _b, res) => json(res, 500, { message: HOSTILE }),
      expect: /answered 500: <script>/,
    },
    {
      name: 'a 500 whose JSON body has an error',
      session: () => aspectsPath,
      answer: (_q, _b, res) => json(res, 500, { error: HOSTILE }),
      expect: /answered 500: <script>/,
    },
    {
      name: 'a 500 of plain text',
      session: () => aspectsPath,
      answer: (_q, _b, res) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`Internal error ${HOSTILE}`),
      expect: /answered 500: Internal error <script>/,
    },
    {
      name: 'a 403 with a hostile reason',
      session: () => aspectsPath,
      answer: (_q, _b, res) => json(res, 403, { error: HOSTILE }),
      expect: /answered 403: <script>/,
    },
    {
      name: 'a redirect to a hostile location',
      session: () => aspectsPath,
      answer: (_q, _b, res) => res.writeHead(302, { Location: 'http://x.example/[a](command:evil)' }).end(),
      expect: /redirects \(302\) to http:\/\/x\.example\//,
    },
    {
      name: 'the aspect write refused with a hostile 422',
      session: () => aspectsPath,
      answer: (req, _b, res) =>
        isGraphql(req)
          ? json(res, 200, DATASET_FOUND)
          : req.method === 'GET'
            ? json(res, 200, { aspects: {} })
            : json(res, 422, { message: HOSTILE }),
      expect: /refused the request \(422\): <script>/,
    },
    {
      name: 'a GraphQL mutation refused with a hostile error',
      session: () => graphqlPath,
      answer: (_q, body, res) =>
        body.includes('mutation')
          ? json(res, 200, {
              data: { updateDataset: null },
              errors: [{ message: HOSTILE, path: ['updateDataset'], extensions: { code: 400 } }],
            })
          : json(res, 200, DATASET_FOUND),
      expect: /api\/graphql: <script>/,
    },
  ];

  for (const c of CASES) {
    test(`${c.name}: the write failure, the status and the connection test quote it as one plain line, cut short`, async () => {
      hostile.answer = c.answer;
      const lsp = c.session();
      const r = await lsp.command<{ status: string; message: string }>('catalogLens.setDatasetDescription', {
        urn: S.users,
        description: 'x',
      });
      assert.equal(r.status, 'failed', JSON.stringify(r).slice(0, 300));
      assert.match(r.message, c.expect);
      assert.deepEqual(activeMessage(r.message, MAX_MESSAGE), [], r.message);
      const probe = await lsp.command<{ message: string }>('catalogLens.testConnection', {});
      assert.deepEqual(activeMessage(probe.message, MAX_MESSAGE), [], probe.message);
      for (const s of lsp.statuses) assert.deepEqual(activeMessage(s.message, MAX_MESSAGE), [], s.message);
      for (const line of lsp.logs) assert.ok(line.length < 20_000, `a log line of ${line.length} characters`);
    });
  }
});

describe('lineage rows from a hostile DataHub (second probe, finding 15)', () => {
  let hostile: HostileCatalog;
  let lsp: LspSession;
  before(async () => {
    hostile = await hostileCatalog();
    lsp = await serverFor(hostile.url, { settings: { requestTimeoutMs: 2000 } });
  });
  after(async () => {
    await lsp.stop();
    await hostile.close();
  });

  test('a row whose urn is not a well-formed URN (a line break and code in it) is dropped; the others stay', async () => {
    const bad = `${S.orders}"\nimport os; os.system("id")\nX = "`;
    hostile.answer = (req, _b, res) => {
      if (req.url !== '/api/graphql') return json(res, 404, {});
      json(res, 200, {
        data: {
          e0: {
            urn: S.users,
            lineage: {
              total: 3,
              relationships: [
                { type: 'DownstreamOf', entity: { urn: bad, type: 'DATASET', name: 'db.orders' } },
                {
                  type: 'DownstreamOf',
                  entity: { urn: '";__import__("os").system("id")#', type: 'DATASET', name: 'x' },
                },
                { type: 'DownstreamOf', entity: { urn: S.orders, type: 'DATASET', name: 'db.orders' } },
              ],
            },
          },
        },
      });
    };
    const r = await lsp.connection.sendRequest<LineageResult>(LineageRequest.method, {
      urn: S.users,
      direction: 'downstream',
    });
    assert.deepEqual(
      r.items?.map((i) => i.urn),
      [S.orders],
    );
  });
});
