// Benchmark 12: a tree shaped like DataHub's own repository (Markdown docs with URNs in code
// spans, tables and fenced GraphQL/JSON/curl blocks; large pretty-printed ingestion golden files
// of MCEs and MCPs; ingestion recipes with transformer URNs; Python SDK examples with builder
// calls), generated deterministically to the proportions of that repository: 267 files, about
// 11 MB (40 files, about 0.8 MB with --quick). Through the real server process over stdio: each
// file opened in turn, from didOpen to its final publishDiagnostics (per MB and in total); then
// documentLink on every file, p99 per file kind, beside the in-process scan of the same text (the
// floor) and the aim of 10 ms; then every file opened at once on a fresh server.
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { percentile, single, summary } from '../lib/measure.mjs';
import { startServer } from '../lib/lsp.mjs';
import { batchQuery, benchDatasetUrn, inParallel, planBatches, postJson } from '../lib/catalogData.mjs';
import { random } from '../lib/generate.mjs';
import { BUILD_ROOT } from '../lib/processes.mjs';
import { WHY } from '../notes.mjs';

const require = createRequire(import.meta.url);
const OPTIONS = { namespaces: ['li', 'svc'] };

/** After a publish, how long no other one may come for it to count as the file's final diagnostics. */
const QUIET_MS = 400;
/** A file that should show an unknown-URN warning and never does is taken as final after this long. */
const GIVE_UP_MS = 15_000;
/** The aim for every documentLink request on a real repository's files. */
const LINK_AIM_MS = 10;

// ---------------------------------------------------------------------------------------------
// The generator. Names and shapes follow DataHub's repository: docs/api/tutorials/*.md,
// metadata-ingestion/tests/**/*_golden.json, metadata-ingestion/examples/recipes/*.yml and
// metadata-ingestion/examples/library/*.py.

/**
 * URNs the shared catalog does not hold, as DataHub's docs and tests spell them (the quickstart's
 * sample datasets, Kafka topics, tags, terms, users, jobs, columns).
 */
const DOC_TABLES = [
  'logging_events',
  'fct_users_deleted',
  'fct_users_created',
  'SampleHiveDataset',
  'SampleKafkaDataset',
  'SampleHdfsDataset',
  'cypress_logging_events',
  'fct_cypress_users_created',
];
const PLATFORMS = ['hive', 'kafka', 'snowflake', 'bigquery', 'postgres', 'mysql', 's3', 'looker', 'tableau', 'dbt'];
const TAGS = ['Legacy', 'NeedsDocumentation', 'PII', 'Email', 'Deprecated', 'Cypress'];
const TERMS = [
  'Classification.Sensitive',
  'Classification.Secret',
  'CustomerAccount',
  'Email',
  'Address',
  'SavingAccount',
];
const USERS = ['datahub', 'jdoe', 'unknown', 'username1', 'username2', 'john.doe@example.com', 'bar@company.com'];
/** URNs the sample data of the local catalog holds (catalog/src/sample.ts). */
const SAMPLE_KNOWN = [
  'urn:li:corpuser:datahub',
  'urn:li:corpuser:jdoe',
  'urn:li:glossaryTerm:Classification.Sensitive',
  'urn:li:dataset:(urn:li:dataPlatform:kafka,events.clicks,PROD)',
  'urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.public.revenue,PROD)',
  'urn:li:dataFlow:(airflow,daily_revenue,PROD)',
  'urn:li:domain:growth',
];

/** A URN pool for one file: datasets in the catalog (bench.t_<i>) and URNs as DataHub's own files write them. */
function urnPool(rnd, datasets) {
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const known = () => benchDatasetUrn(Math.floor(rnd() * datasets));
  const platform = () => pick(PLATFORMS);
  const docDataset = (p = 'hive') => `urn:li:dataset:(urn:li:dataPlatform:${p},${pick(DOC_TABLES)},PROD)`;
  const unknownDataset = () =>
    `urn:li:dataset:(urn:li:dataPlatform:${platform()},${pick(['prod', 'analytics', 'raw', 'staging'])}.${pick(['public', 'core', 'events'])}.${pick(DOC_TABLES).toLowerCase()}_${Math.floor(rnd() * 500)},PROD)`;
  return {
    pick,
    known,
    docDataset,
    unknownDataset,
    /**
     * A dataset: in the catalog with probability `knownShare`; else one in five a near miss of one
     * that is (its name in another environment: did-you-mean finds it), the others names the catalog lacks.
     */
    dataset: (knownShare = 0.5) => {
      if (rnd() < knownShare) return known();
      const r = rnd();
      return r < 0.2 ? known().replace(',PROD)', ',DEV)') : r < 0.6 ? docDataset() : unknownDataset();
    },
    user: () => `urn:li:corpuser:${pick(USERS)}`,
    group: () => `urn:li:corpGroup:${pick(['data-platform', 'analytics', 'bfoo', 'jdoe-group'])}`,
    tag: () => `urn:li:tag:${pick(TAGS)}`,
    term: () => `urn:li:glossaryTerm:${pick(TERMS)}`,
    field: (ds, f) => `urn:li:schemaField:(${ds},${f})`,
    job: () =>
      `urn:li:dataJob:(urn:li:dataFlow:(airflow,${pick(['dag_abc', 'daily_revenue', 'etl_users'])},PROD),${pick(['task_123', 'load_revenue', 'extract'])})`,
    flow: () => `urn:li:dataFlow:(airflow,${pick(['dag_abc', 'daily_revenue', 'etl_users'])},PROD)`,
    chart: () => `urn:li:chart:(looker,${pick(['dashboard_elements.1', 'revenue_by_day', 'baz1'])})`,
    dashboard: () => `urn:li:dashboard:(looker,${pick(['dashboards.1', 'revenue_overview', 'baz'])})`,
    container: () =>
      `urn:li:container:${Math.floor(rnd() * 0xffffffff)
        .toString(16)
        .padStart(8, '0')}5b5c6d7e8f9a0b1c2d3e4f5a6b`,
    domain: () => `urn:li:domain:${pick(['marketing', 'finance', 'growth', 'engineering'])}`,
    platformUrn: (p = platform()) => `urn:li:dataPlatform:${p}`,
    mlFeature: () =>
      `urn:li:mlFeature:(feature_store.driver_hourly_stats,${pick(['conv_rate', 'acc_rate', 'avg_daily_trips'])})`,
    mlModel: () =>
      `urn:li:mlModel:(urn:li:dataPlatform:mlflow,${pick(['churn-model', 'sk-learn-model', 'forecast'])},PROD)`,
    sample: () => pick(SAMPLE_KNOWN),
  };
}

const WORDS =
  'the dataset metadata lineage ingestion source sink recipe entity aspect owner tag term column schema platform emitter graph search query upstream downstream quickstart sample access token field description property container domain assertion'.split(
    ' ',
  );

function sentence(rnd, n = 12 + Math.floor(rnd() * 14)) {
  const w = [];
  for (let i = 0; i < n; i++) w.push(WORDS[Math.floor(rnd() * WORDS.length)]);
  const s = w.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
}

/** A Markdown tutorial of about `bytes` characters, in the shape of docs/api/tutorials/*.md. */
function markdownDoc(rnd, bytes, datasets, { urnTable = false } = {}) {
  const u = urnPool(rnd, datasets);
  const topic = u.pick(['Lineage', 'Tags', 'Owners', 'Domains', 'Deprecation', 'Descriptions', 'Terms', 'Datasets']);
  const out = [
    "import Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n",
    `# ${topic}\n`,
    `## Why Would You Use ${topic}?\n`,
    `${sentence(rnd)} ${sentence(rnd)} For more information, refer to [About DataHub ${topic}](/docs/${topic.toLowerCase()}.md).\n`,
  ];
  let size = out.reduce((n, s) => n + s.length, 0);
  const add = (s) => {
    out.push(s);
    size += s.length;
  };
  if (urnTable) {
    // A reference table: one row per entity, its URN in a code span (docs/what/urn.md, the entity pages).
    add('| Entity | URN | Owner | Notes |\n| --- | --- | --- | --- |\n');
    for (let i = 0; size < bytes * 0.85; i++) {
      const ds = i % 3 === 0 ? u.known() : u.dataset(0.3);
      add(
        `| ${ds.slice(ds.indexOf(',') + 1, ds.lastIndexOf(','))} | \`${ds}\` | \`${u.user()}\` | tagged \`${u.tag()}\` |\n`,
      );
    }
    add('\n');
  }
  while (size < bytes) {
    const ds = u.dataset(0.4);
    const up = u.dataset(0.4);
    switch (Math.floor(rnd() * 6)) {
      case 0:
        add(
          `## Add ${topic} to \`${ds.slice(ds.indexOf(',') + 1, ds.lastIndexOf(','))}\`\n\n<Tabs>\n<TabItem value="graphql" label="GraphQL" default>\n\n\`\`\`graphql\nmutation update${topic} {\n  updateLineage(\n    input: {\n      edgesToAdd: [\n        {\n          downstreamUrn: "${ds}"\n          upstreamUrn: "${up}"\n        }\n      ]\n      edgesToRemove: []\n    }\n  )\n}\n\`\`\`\n\n`,
        );
        break;
      case 1:
        add(
          `\`\`\`shell\ncurl --location --request POST 'http://localhost:8080/api/graphql' \\\n--header 'Authorization: Bearer <my-access-token>' \\\n--header 'Content-Type: application/json' --data-raw '{ "query": "mutation addTags { addTags(input: { tagUrns: [\\"${u.tag()}\\"], resourceUrn: \\"${ds}\\" }) }", "variables":{}}'\n\`\`\`\n\n`,
        );
        break;
      case 2:
        add(
          `${sentence(rnd)} The dataset \`${ds}\` is owned by \`${u.user()}\` and feeds \`${u.field(up, u.pick(['browser_id', 'user_id', 'email']))}\`. ${sentence(rnd)}\n\n`,
        );
        break;
      case 3:
        add(
          `\`\`\`json\n{\n  "data": {\n    "dataset": {\n      "urn": "${ds}",\n      "ownership": { "owners": [ { "owner": { "urn": "${u.user()}" } } ] },\n      "tags": { "tags": [ { "tag": { "urn": "${u.tag()}" } } ] },\n      "glossaryTerms": { "terms": [ { "term": { "urn": "${u.term()}" } } ] }\n    }\n  },\n  "extensions": {}\n}\n\`\`\`\n\n`,
        );
        break;
      case 4:
        add(
          `\`\`\`python\n{{ inline /metadata-ingestion/examples/library/${topic.toLowerCase()}_add_to_dataset.py show_path_as_comment }}\n\`\`\`\n\n</TabItem>\n</Tabs>\n\n### Expected Outcome\n\n${sentence(rnd)} ${sentence(rnd)}\n\n`,
        );
        break;
      default:
        add(`${sentence(rnd)} ${sentence(rnd)} ${sentence(rnd)}\n\n- ${sentence(rnd)}\n- ${sentence(rnd)}\n\n`);
    }
  }
  return out.join('');
}

const FIELD_TYPES = ['StringType', 'NumberType', 'BooleanType', 'TimeType', 'DateType', 'ArrayType', 'RecordType'];

/** One record of an ingestion golden file: an MCE snapshot (schema, properties) or an MCP with its aspect as JSON. */
function goldenRecord(rnd, u, runId, i) {
  const ds = i % 4 === 0 ? u.known() : u.unknownDataset();
  const systemMetadata = { lastObserved: 1586847600000, runId, lastRunId: 'no-run-id-provided' };
  const kind = i % 5;
  if (kind === 0) {
    const name = ds.slice(ds.indexOf(',') + 1, ds.lastIndexOf(','));
    const fields = [];
    const nFields = 4 + Math.floor(rnd() * 30);
    for (let f = 0; f < nFields; f++) {
      const t = u.pick(FIELD_TYPES);
      fields.push({
        fieldPath:
          rnd() < 0.3
            ? `[version=2.0].[type=${name}].[type=${t.replace('Type', '').toLowerCase()}].col_${f}`
            : `col_${f}`,
        nullable: rnd() < 0.5,
        description: rnd() < 0.4 ? `Column ${f} of ${name}.` : undefined,
        type: { type: { [`com.linkedin.pegasus2avro.schema.${t}`]: {} } },
        nativeDataType: t === 'NumberType' ? 'bigint' : 'varchar',
        recursive: false,
        ...(rnd() < 0.2 ? { globalTags: { tags: [{ tag: u.tag() }] } } : {}),
        isPartOfKey: f === 0,
      });
    }
    return {
      proposedSnapshot: {
        'com.linkedin.pegasus2avro.metadata.snapshot.DatasetSnapshot': {
          urn: ds,
          aspects: [
            { 'com.linkedin.pegasus2avro.common.Status': { removed: false } },
            {
              'com.linkedin.pegasus2avro.schema.SchemaMetadata': {
                schemaName: name,
                platform: u.platformUrn(ds.slice(ds.indexOf('dataPlatform:') + 13, ds.indexOf(','))),
                version: 0,
                created: { time: 0, actor: 'urn:li:corpuser:unknown' },
                lastModified: { time: 0, actor: 'urn:li:corpuser:unknown' },
                hash: '',
                platformSchema: { 'com.linkedin.pegasus2avro.schema.MySqlDDL': { tableSchema: '' } },
                fields,
              },
            },
            {
              'com.linkedin.pegasus2avro.dataset.DatasetProperties': {
                customProperties: { Partitions: '1', 'Replication Factor': '1', 'Cleanup Policies': 'delete' },
                name,
                tags: [],
              },
            },
          ],
        },
      },
      systemMetadata,
    };
  }
  const mcp = (aspectName, json) => ({
    entityType: 'dataset',
    entityUrn: ds,
    changeType: 'UPSERT',
    aspectName,
    aspect: { json },
    systemMetadata,
  });
  switch (kind) {
    case 1:
      return mcp('upstreamLineage', {
        upstreams: [
          {
            auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' },
            dataset: u.dataset(0.3),
            type: 'TRANSFORMED',
          },
        ],
        fineGrainedLineages: [
          {
            upstreamType: 'FIELD_SET',
            upstreams: [u.field(u.unknownDataset(), 'id')],
            downstreamType: 'FIELD',
            downstreams: [u.field(ds, 'id')],
            confidenceScore: 1.0,
          },
        ],
      });
    case 2:
      return mcp('ownership', {
        owners: [
          { owner: u.user(), type: 'TECHNICAL_OWNER' },
          { owner: u.group(), type: 'DATAOWNER' },
        ],
        ownerTypes: {},
        lastModified: { time: 0, actor: 'urn:li:corpuser:unknown' },
      });
    case 3:
      return mcp('browsePathsV2', {
        path: [
          { id: u.container().slice(16), urn: u.container() },
          { id: u.container().slice(16), urn: u.container() },
        ],
      });
    default:
      return mcp(u.pick(['globalTags', 'glossaryTerms', 'container', 'subTypes']), {
        tags: [{ tag: u.tag() }],
        terms: [{ urn: u.term() }],
        container: u.container(),
        typeNames: ['Table'],
      });
  }
}

/** A golden file of about `bytes` characters: a JSON array, one record per element, as DataHub writes them (indent 4). */
function goldenJson(rnd, bytes, datasets) {
  const u = urnPool(rnd, datasets);
  const runId = `${u.pick(['kafka', 'tableau', 'mysql', 'bigquery', 's3', 'dbt'])}-test`;
  const parts = [];
  let size = 4;
  for (let i = 0; size < bytes; i++) {
    const s = JSON.stringify(goldenRecord(rnd, u, runId, i), null, 4);
    parts.push(s);
    size += s.length + 2;
  }
  return `[\n${parts.join(',\n')}\n]`;
}

/** A recipe (metadata-ingestion/examples/recipes/*.yml): source, transformers naming URNs, sink. */
function recipeYaml(rnd, datasets) {
  const u = urnPool(rnd, datasets);
  const source = u.pick(['mysql', 'postgres', 'snowflake', 'bigquery', 'kafka', 'file', 'hive']);
  const lines = [
    '---',
    '# see https://datahubproject.io/docs/metadata-ingestion/source_docs/ for complete documentation',
    'source:',
    `  type: "${source}"`,
    '  config:',
    `    host_port: "localhost:${3000 + Math.floor(rnd() * 6000)}"`,
    `    database: "${u.pick(['dbname', 'analytics', 'warehouse'])}"`,
    '    username: "${DB_USER}"',
    '    password: "${DB_PASSWORD}"',
  ];
  if (rnd() < 0.6) {
    lines.push('transformers:');
    lines.push('  - type: "simple_add_dataset_ownership"', '    config:', '      owner_urns:');
    for (let i = 0; i < 1 + Math.floor(rnd() * 3); i++) lines.push(`        - "${i === 0 ? u.sample() : u.user()}"`);
    lines.push('  - type: "simple_add_dataset_tags"', '    config:', '      tag_urns:', `        - "${u.tag()}"`);
    if (rnd() < 0.5)
      lines.push(
        '  - type: "pattern_add_dataset_terms"',
        '    config:',
        '      term_pattern:',
        '        rules:',
        `          ".*example1.*": ["${u.term()}", "${u.term()}"]`,
      );
    if (rnd() < 0.4)
      lines.push('  - type: "simple_add_dataset_domain"', '    config:', '      domains:', `        - "${u.domain()}"`);
  }
  lines.push(
    '',
    '# see https://datahubproject.io/docs/metadata-ingestion/sink_docs/datahub for complete documentation',
    'sink:',
    '  type: "datahub-rest"',
    '  config:',
    '    server: "http://localhost:8080"',
    '',
  );
  return lines.join('\n');
}

/** A Python SDK example (metadata-ingestion/examples/library/*.py): builder calls and URN literals. */
function pythonExample(rnd, datasets) {
  const u = urnPool(rnd, datasets);
  const table = u.pick(DOC_TABLES);
  const lines = [
    'import datahub.emitter.mce_builder as builder',
    'from datahub.emitter.mcp import MetadataChangeProposalWrapper',
    'from datahub.emitter.rest_emitter import DatahubRestEmitter',
    'from datahub.metadata.schema_classes import (',
    '    GlobalTagsClass,',
    '    OwnerClass,',
    '    OwnershipClass,',
    '    OwnershipTypeClass,',
    '    TagAssociationClass,',
    ')',
    '',
    '',
    'def datasetUrn(tbl):',
    `    return builder.make_dataset_urn("${u.pick(PLATFORMS)}", tbl)`,
    '',
    '',
    `dataset_urn = builder.make_dataset_urn(platform="hive", name="${table}", env="PROD")`,
    `owner_urn = builder.make_user_urn("${u.pick(USERS)}")`,
    `tag_urn = builder.make_tag_urn("${u.pick(TAGS)}")`,
    `upstream = "${u.dataset(0.5)}"`,
    `known = "${u.known()}"`,
    '',
  ];
  for (let i = 0; i < 2 + Math.floor(rnd() * 6); i++) {
    lines.push(
      `# Emit the ${u.pick(['ownership', 'tags', 'lineage'])} of ${table} (${i})`,
      `mcp_${i} = MetadataChangeProposalWrapper(`,
      `    entityUrn=${rnd() < 0.5 ? 'dataset_urn' : `"${u.dataset(0.5)}"`},`,
      `    aspect=OwnershipClass(owners=[OwnerClass(owner="${u.user()}", type=OwnershipTypeClass.TECHNICAL_OWNER)]),`,
      ')',
      `fields_${i} = [builder.make_schema_field_urn(datasetUrn("${u.pick(DOC_TABLES)}"), "${u.pick(['browser_id', 'user_id', 'email'])}")]`,
      '',
    );
  }
  lines.push(
    '# Create an emitter to the GMS REST API.',
    'emitter = DatahubRestEmitter("http://localhost:8080")',
    '',
    '# Emit metadata!',
    ...Array.from({ length: 2 }, (_, i) => `emitter.emit_mcp(mcp_${i})`),
    '',
  );
  return lines.join('\n');
}

/**
 * The tree: `{ path, languageId, kind, text, expectUnknown }` per file. Full: 267 files, about 11 MB
 * (120 Markdown docs, 45 golden JSON files, 55 recipes, 47 Python examples; the golden files are
 * most of the bytes, up to 1.7 MB each). Quick: 40 files, about 1 MB. `expectUnknown`: the file
 * holds a top-level dataset URN that the catalog lacks, so its final diagnostics warn of one.
 */
export function realRepoTree({ quick, datasets, seed = 2026_11_28 }) {
  const rnd = random(seed);
  const files = [];
  const count = quick ? { md: 18, json: 6, yml: 8, py: 8 } : { md: 120, json: 45, yml: 55, py: 47 };
  for (let i = 0; i < count.md; i++) {
    // Most tutorials are 2–12 KB; a few long guides; one reference page of 15 KB that is mostly a URN table.
    const urnTable = i === 7;
    const bytes = urnTable ? 15_000 : i % 15 === 0 ? 30_000 + rnd() * 20_000 : 2_000 + rnd() * 10_000;
    files.push({
      path: `docs/api/tutorials/${urnTable ? 'urn-reference' : `tutorial_${i}`}.md`,
      languageId: 'markdown',
      kind: 'markdown',
      text: markdownDoc(rnd, bytes, datasets, { urnTable }),
    });
  }
  // Golden files: many of 20–150 KB, a few of 0.5–1.7 MB (tableau, unity, s3 …).
  for (let i = 0; i < count.json; i++) {
    const big = i % 9 === 4;
    const bytes = (big ? 500_000 + rnd() * 1_200_000 : 15_000 + rnd() * 90_000) * (quick ? 0.5 : 1);
    files.push({
      path: `metadata-ingestion/tests/integration/source_${i}/source_${i}_mces_golden.json`,
      languageId: 'json',
      kind: 'json',
      text: goldenJson(rnd, i === 4 ? (quick ? 300_000 : 1_700_000) : bytes, datasets),
    });
  }
  for (let i = 0; i < count.yml; i++)
    files.push({
      path: `metadata-ingestion/examples/recipes/recipe_${i}_to_datahub.yml`,
      languageId: 'yaml',
      kind: 'yaml',
      text: recipeYaml(rnd, datasets),
    });
  for (let i = 0; i < count.py; i++)
    files.push({
      path: `metadata-ingestion/examples/library/example_${i}.py`,
      languageId: 'python',
      kind: 'python',
      text: pythonExample(rnd, datasets),
    });
  // Opened in an order that mixes the kinds, as someone browsing the repository would.
  const order = files.map((f, i) => ({ f, key: random(i + 1)() })).sort((a, b) => a.key - b.key);
  return order.map(({ f }) => f);
}

// ---------------------------------------------------------------------------------------------
// The measurement.

const KINDS = ['markdown', 'json', 'yaml', 'python'];
const mbOf = (files) => files.reduce((n, f) => n + Buffer.byteLength(f.text), 0) / 1e6;

/** Utime + stime of a process in ms, from /proc/<pid>/stat (clock ticks of 10 ms). */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * Watches the publishes of `uri`: resolves with the last one once no other came for QUIET_MS after
 * it (and, when `expectUnknown`, only once one held an unknown-URN warning, or after GIVE_UP_MS):
 * `{ at, count, diagnostics, unknownSeen }`, `at` its arrival time.
 */
function finalPublish(server, uri, expectUnknown) {
  return new Promise((resolve) => {
    let last;
    let count = 0;
    let unknownSeen = false;
    let quiet;
    const finish = () => {
      clearTimeout(giveUp);
      clearTimeout(quiet);
      stop();
      resolve({ at: last?.at ?? NaN, count, diagnostics: last?.diagnostics ?? [], unknownSeen });
    };
    const giveUp = setTimeout(finish, GIVE_UP_MS);
    const stop = server.onPublish((u, diagnostics, at) => {
      if (u !== uri) return;
      count++;
      last = { diagnostics, at };
      if (diagnostics.some((d) => d.code === 'unknown-urn')) unknownSeen = true;
      clearTimeout(quiet);
      if (!expectUnknown || unknownSeen) quiet = setTimeout(finish, QUIET_MS);
    });
  });
}

const KIND_BY_EXTENSION = { '.md': 'markdown', '.json': 'json', '.yml': 'yaml', '.yaml': 'yaml', '.py': 'python' };

/** The files of a folder, in the tree's shape (kind and language id by extension), sorted by path. */
function treeFromFolder(root) {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      const kind = KIND_BY_EXTENSION[path.extname(e.name)];
      if (e.isFile() && kind)
        files.push({ path: path.relative(root, full), languageId: kind, kind, text: readFileSync(full, 'utf8') });
    }
  };
  walk(root);
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

/** Opens, checks, asks the links of and closes a few files of every kind (another seed), unmeasured. */
async function warmUp(server, datasets) {
  const files = realRepoTree({ quick: true, datasets, seed: 7 });
  const picked = KINDS.flatMap((k) => files.filter((f) => f.kind === k && f.text.length < 100_000).slice(0, 2));
  for (const f of picked) {
    const uri = `file:///bench/realrepo-warmup/${f.path}`;
    const final = finalPublish(server, uri, false);
    await server.open(uri, f.languageId, f.text);
    await final;
    await server.connection.sendRequest('textDocument/documentLink', { textDocument: { uri } });
    await server.close(uri);
  }
}

export async function realRepoBenchmark({ quick, catalog, datasets, serverArgs }) {
  const scan = require(path.join(BUILD_ROOT, 'out', 'server', 'src', 'scan', 'index.js'));
  const { clearParseCache } = require(path.join(BUILD_ROOT, 'out', 'server', 'src', 'scan', 'parseCache.js'));
  // BENCH_REALREPO_TREE=<folder>: real files instead of the generated tree (.md, .json, .yml/.yaml, .py under it).
  const files = process.env.BENCH_REALREPO_TREE
    ? treeFromFolder(process.env.BENCH_REALREPO_TREE)
    : realRepoTree({ quick, datasets });
  const uriOf = (f, run) => `file:///bench/realrepo-${run}/${f.path}`;
  const totalMb = mbOf(files);
  const settings = { url: catalog.url };

  // The floor, in this process: each file scanned cold (parse cache emptied, as on open) and warm.
  const floor = new Map();
  for (const f of files) scan.scanDocument(f.text, f.languageId, OPTIONS);
  for (const f of files) {
    const coldRuns = [];
    let result;
    for (let i = 0; i < 3; i++) {
      clearParseCache();
      const t = performance.now();
      result = scan.scanDocument(f.text, f.languageId, OPTIONS);
      coldRuns.push(performance.now() - t);
    }
    const cold = summary(coldRuns).min;
    const warmRuns = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      scan.scanDocument(f.text, f.languageId, OPTIONS);
      warmRuns.push(performance.now() - t);
    }
    const topLevel = result.occurrences.filter((o) => o.parent === undefined);
    // A top-level dataset URN outside the catalog (not bench.t_<i>, not the sample's): the final publish warns of it.
    const expectUnknown = topLevel.some(
      (o) =>
        o.parsed?.ok &&
        o.parsed.urn.kind === 'dataset' &&
        !o.template &&
        !/,bench\.t_\d+,PROD\)$/.test(o.urn) &&
        !SAMPLE_KNOWN.includes(o.urn),
    );
    floor.set(f, { cold, warm: summary(warmRuns).min, urns: topLevel.length, expectUnknown, direct: NaN });
  }
  clearParseCache();

  // The floor of opening a file: its cold scan in this process, then the resolve documents of its
  // URNs not asked before in the sequence (the server's cache answers those) POSTed directly, 4 at a time.
  const out = path.join(BUILD_ROOT, 'out', 'server', 'src');
  // Older builds kept resolvableItems in the pipeline's module.
  const { resolvableItems } = existsSync(path.join(out, 'resolution', 'resolve.js'))
    ? require(path.join(out, 'resolution', 'resolve.js'))
    : require(path.join(out, 'pipeline', 'check.js'));
  const asked = new Set();
  const directFloor = async (f) => {
    clearParseCache();
    const start = performance.now();
    const result = scan.scanDocument(f.text, f.languageId, OPTIONS);
    const items = resolvableItems([result]).filter((i) => !asked.has(i.urn));
    for (const i of items) asked.add(i.urn);
    const documents = planBatches(items, { maxItems: 100, complexity: 2000 }).map((batch) => {
      const { query, variables } = batchQuery(batch);
      return JSON.stringify({ query, variables });
    });
    await inParallel(
      documents.map((body) => async () => {
        const r = await postJson(`${catalog.url}/api/graphql`, body);
        if (r.status !== 200) throw new Error(`GraphQL answered ${r.status}`);
      }),
      4,
    );
    return performance.now() - start;
  };

  // 1. Each file opened in turn on a fresh server (cold catalog cache, as after start-up), once a
  // warm-up tree of other files (one of each kind) went through it: start-up is benchmark 8's.
  const server = await startServer({ settings, nodeArgs: serverArgs });
  await warmUp(server, datasets);
  const perFile = new Map();
  let linkRows = [];
  let linkNotes = [];
  let burst;
  try {
    const cpuBefore = cpuMs(server.pid);
    const catalogCpuBefore = cpuMs(catalog.pid);
    for (const f of files) {
      const uri = uriOf(f, 1);
      const openedAt = performance.now();
      const final = finalPublish(server, uri, floor.get(f).expectUnknown);
      await server.open(uri, f.languageId, f.text);
      const p = await final;
      perFile.set(f, {
        ms: p.at - openedAt,
        publishes: p.count,
        unknownSeen: p.unknownSeen,
        diagnostics: p.diagnostics.length,
      });
      floor.get(f).direct = await directFloor(f);
    }
    const cpuSequential = cpuMs(server.pid) - cpuBefore;
    const catalogCpu = cpuMs(catalog.pid) - catalogCpuBefore;
    // BENCH_REALREPO_DUMP=<folder>: the tree and each file's figures written there (for profiling one file alone).
    const dump = process.env.BENCH_REALREPO_DUMP;
    if (dump) {
      for (const f of files) {
        mkdirSync(path.dirname(path.join(dump, f.path)), { recursive: true });
        writeFileSync(path.join(dump, f.path), f.text);
      }
      const figures = files.map((f) => ({
        path: f.path,
        bytes: Buffer.byteLength(f.text),
        ...floor.get(f),
        ...perFile.get(f),
      }));
      writeFileSync(path.join(dump, 'figures.json'), JSON.stringify(figures, null, 1));
    }

    // 2. documentLink on every open file: the first request of the version (links made), then
    // rounds over all files again (links kept per version).
    const rounds = quick ? 5 : 10;
    const first = new Map();
    /** @type {Map<object, number[]>} */
    const again = new Map(files.map((f) => [f, []]));
    const links = (f) =>
      server.connection.sendRequest('textDocument/documentLink', { textDocument: { uri: uriOf(f, 1) } });
    let linkCount = 0;
    for (const f of files) {
      const t = performance.now();
      const r = await links(f);
      first.set(f, performance.now() - t);
      linkCount += Array.isArray(r) ? r.length : 0;
    }
    for (let r = 0; r < rounds; r++)
      for (const f of files) {
        const t = performance.now();
        await links(f);
        again.get(f)?.push(performance.now() - t);
      }
    for (const f of files) await server.close(uriOf(f, 1));

    // The rows: per kind, the open → final diagnostics per MB; documentLink p50/p99.
    const rows = [];
    const openRow = (label, list) => {
      const mb = mbOf(list);
      const ms = list.reduce((n, f) => n + perFile.get(f).ms, 0);
      const floorMs = list.reduce((n, f) => n + floor.get(f).direct, 0);
      return {
        figure: `open → final diagnostics per MB, ${label}`,
        unit: 'ms/MB',
        value: single(ms / mb),
        floorName: 'cold scan + direct resolve POSTs, per MB',
        floor: single(floorMs / mb),
        ratio: ms / floorMs,
      };
    };
    const totalMs = files.reduce((n, f) => n + perFile.get(f).ms, 0);
    const totalFloor = files.reduce((n, f) => n + floor.get(f).direct, 0);
    rows.push({
      figure: 'open → final diagnostics, every file in turn (sum)',
      unit: 'ms',
      value: single(totalMs),
      floorName: 'cold scan + direct resolve POSTs, summed',
      floor: single(totalFloor),
      ratio: totalMs / totalFloor,
    });
    rows.push(openRow('every file', files));
    for (const kind of KINDS) {
      const list = files.filter((f) => f.kind === kind);
      if (list.length > 0) rows.push(openRow(kind, list));
    }
    const openRows = rows.length;
    const linkRow = (label, list) => {
      const all = list.flatMap((f) => [first.get(f), ...(again.get(f) ?? [])]);
      const p99 = percentile(all, 99);
      const floorP99 = percentile(
        list.map((f) => floor.get(f).warm),
        99,
      );
      return {
        figure: `documentLink p99, ${label}`,
        unit: 'ms',
        value: single(p99),
        floorName: 'warm scanDocument of the same files, p99',
        floor: single(floorP99),
        ratio: p99 / floorP99,
        aim: `≤ ${LINK_AIM_MS} ms`,
        met: p99 <= LINK_AIM_MS,
        why: WHY.realRepoLinks,
      };
    };
    const kinds = KINDS.filter((k) => files.some((f) => f.kind === k));
    linkRows = [
      linkRow('every file', files),
      ...kinds.map((k) =>
        linkRow(
          k,
          files.filter((f) => f.kind === k),
        ),
      ),
    ];
    const slowestLink = files.reduce((a, b) => (first.get(b) > first.get(a) ? b : a));
    const p50Of = (list) =>
      percentile(
        list.flatMap((f) => [first.get(f), ...(again.get(f) ?? [])]),
        50,
      ).toFixed(2);
    const firstP99Of = (list) =>
      percentile(
        list.map((f) => first.get(f)),
        99,
      ).toFixed(1);
    linkNotes = [
      `documentLink: ${linkCount.toLocaleString('en-US')} links over the tree; per file the first request of its version (the links made) and ${rounds} more in rounds over the tree (the links kept), p99 over all of them. p50: every file ${p50Of(files)} ms; ${kinds.map((k) => `${k} ${p50Of(files.filter((f) => f.kind === k))} ms`).join(', ')}. First requests alone, p99: every file ${firstP99Of(files)} ms; ${kinds.map((k) => `${k} ${firstP99Of(files.filter((f) => f.kind === k))} ms`).join(', ')}. Slowest first request: ${slowestLink.path} (${(Buffer.byteLength(slowestLink.text) / 1024).toFixed(0)} KB, ${floor.get(slowestLink).urns.toLocaleString('en-US')} URNs) ${first.get(slowestLink).toFixed(1)} ms, its warm scan ${floor.get(slowestLink).warm.toFixed(1)} ms.`,
    ];
    rows.push(...linkRows);
    const ranked = [...files].sort((a, b) => perFile.get(b).ms - perFile.get(a).ms);
    const describe = (f) => {
      const p = perFile.get(f);
      const fl = floor.get(f);
      return `${f.path} (${(Buffer.byteLength(f.text) / 1024).toFixed(0)} KB, ${fl.urns.toLocaleString('en-US')} URNs, ${p.publishes} publish(es)): ${p.ms.toFixed(0)} ms, cold scan ${fl.cold.toFixed(1)} ms`;
    };
    const unmatched = files.filter((f) => floor.get(f).expectUnknown && !perFile.get(f).unknownSeen);
    const notes = [
      `Tree: ${files.length} files, ${totalMb.toFixed(2)} MB (${KINDS.map((k) => `${files.filter((f) => f.kind === k).length} ${k}, ${mbOf(files.filter((f) => f.kind === k)).toFixed(2)} MB`).join('; ')}); ${[...floor.values()].reduce((n, x) => n + x.urns, 0).toLocaleString('en-US')} top-level URNs, ${files.filter((f) => floor.get(f).expectUnknown).length} files with a dataset URN the catalog lacks.`,
      `Slowest files, open → final diagnostics: ${ranked.slice(0, 3).map(describe).join('; ')}.`,
      `CPU time (utime + stime, /proc/<pid>/stat) while the files were opened one by one: the server ${(cpuSequential / 1000).toFixed(2)} s (${(cpuSequential / totalMb).toFixed(0)} ms per MB), the local catalog ${(catalogCpu / 1000).toFixed(2)} s (it also answered the floor's POSTs).`,
      ...(unmatched.length > 0
        ? [
            `${unmatched.length} file(s) never showed the unknown-URN warning expected (taken as final after ${GIVE_UP_MS / 1000} s): ${unmatched
              .slice(0, 5)
              .map((f) => f.path)
              .join(', ')}.`,
          ]
        : []),
      ...linkNotes,
    ];
    burst = { rows, notes, openRows };
  } finally {
    await server.stop();
  }

  // 3. Every file opened at once on a fresh server: from the first didOpen to the last file's final diagnostics.
  const server2 = await startServer({ settings, nodeArgs: serverArgs });
  await warmUp(server2, datasets);
  try {
    const cpuBefore = cpuMs(server2.pid);
    const start = performance.now();
    const finals = files.map((f) => finalPublish(server2, uriOf(f, 2), floor.get(f).expectUnknown));
    for (const f of files) await server2.open(uriOf(f, 2), f.languageId, f.text);
    const done = await Promise.all(finals);
    const lastAt = Math.max(...done.map((d) => d.at));
    const ms = lastAt - start;
    const cpu = cpuMs(server2.pid) - cpuBefore;
    const floorMs = files.reduce((n, f) => n + floor.get(f).direct, 0);
    burst.rows.splice(burst.openRows, 0, {
      figure: 'every file opened at once: first didOpen → last final diagnostics',
      unit: 'ms',
      value: single(ms),
      floorName: 'cold scan + direct resolve POSTs of every file, summed',
      floor: single(floorMs),
      ratio: ms / floorMs,
    });
    burst.notes.push(
      `Every file opened at once: ${(ms / 1000).toFixed(2)} s to the last final diagnostics (${(ms / totalMb).toFixed(0)} ms per MB); server CPU ${(cpu / 1000).toFixed(2)} s.`,
    );
    for (const f of files) await server2.close(uriOf(f, 2));
  } finally {
    await server2.stop();
  }

  return {
    id: '12',
    title: 'A repository shaped like DataHub’s own',
    input: `dist/server.js over stdio (default settings, the shared local catalog), ${files.length} files, ${totalMb.toFixed(2)} MB ${process.env.BENCH_REALREPO_TREE ? `read from ${process.env.BENCH_REALREPO_TREE}` : "generated in the shapes of DataHub's repository: Markdown tutorials (URNs in code spans, tables, GraphQL/JSON/curl blocks; one 15 KB page mostly a URN table), ingestion golden files (pretty-printed MCEs and MCPs, up to 1.7 MB), recipes with transformer URNs, Python SDK examples with builder calls; about half the dataset URNs in the catalog; in the docs and examples a tenth are near misses (a known name in another environment, which did-you-mean finds)"}. After a warm-up tree, each file opened in turn, timed from didOpen to its final publishDiagnostics (the last one, none following for ${QUIET_MS} ms; the quiet wait is not counted); then documentLink on every file; then, on a fresh server, every file opened at once. Floors, in this process: for opening, the file's cold scanDocument plus its resolve documents POSTed directly to the catalog (only URNs not asked before in the run: the server's cache answers the others), 4 at a time; for documentLink, the warm scanDocument of the same files, the fastest of 3 per file (what a request would cost if the server scanned the file again; the links are made from the scan kept per version).`,
    rows: burst.rows,
    notes: burst.notes,
  };
}
