// Benchmark 7: the local catalog under load from a second process (Debian's wrk): GraphQL reads
// per second against a bare node:http server answering the same bytes, and durable aspect writes
// per second against the raw fsync rate of the disk the database is on.
import { closeSync, fsyncSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { summary } from '../lib/measure.mjs';
import { batchQuery, benchDatasetUrn, ingestDatasets, postJson, readStats, resetStats } from '../lib/catalogData.mjs';
import { freshDbFolder, requireTool, runToEnd, startBareServer, startCatalog } from '../lib/processes.mjs';
import { WHY } from '../notes.mjs';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const CONNECTIONS = 8;
/**
 * Datasets read in turn by the cold-read figure: more than the catalog keeps answers (1,000,
 * catalog/src/graphql/answerCache.ts) or entities read (1,000, AspectStore.getAll), so with the
 * oldest dropped first every read is of a dataset whose answer and aspects were dropped since.
 */
const COLD_DATASETS = 2000;

const luaString = (s) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

function readScript(body) {
  return `wrk.method = "POST"\nwrk.body = ${luaString(body)}\nwrk.headers["Content-Type"] = "application/json"\n`;
}

/** Each request the next of `bodies`, in turn. */
function roundRobinScript(bodies) {
  return [
    'local headers = { ["Content-Type"] = "application/json" }',
    `local bodies = { ${bodies.map(luaString).join(',\n')} }`,
    'local i = 0',
    'request = function()',
    '  i = i % #bodies + 1',
    '  return wrk.format("POST", nil, headers, bodies[i])',
    'end',
    '',
  ].join('\n');
}

/** Every request a new description of db.users: a real change, so every request is a durable write. */
function writeScript() {
  const before = JSON.stringify({
    proposal: {
      entityType: 'dataset',
      entityUrn: USERS,
      changeType: 'UPSERT',
      aspectName: 'editableDatasetProperties',
      aspect: { value: '@@', contentType: 'application/json' },
    },
    async: 'false',
  });
  const [head, tail] = before.split('"@@"');
  return [
    'local counter = 0',
    'local headers = { ["Content-Type"] = "application/json", ["X-RestLi-Protocol-Version"] = "2.0.0" }',
    `local head = ${luaString(head)}`,
    `local tail = ${luaString(tail)}`,
    'request = function()',
    '  counter = counter + 1',
    // The aspect value is a JSON string inside the JSON body: its quotes are escaped.
    String.raw`  local value = "\"{\\\"description\\\":\\\"written by wrk, request " .. counter .. "\\\"}\""`,
    '  return wrk.format("POST", "/aspects?action=ingestProposal", headers, head .. value .. tail)',
    'end',
    '',
  ].join('\n');
}

/** Runs wrk; returns requests per second and the non-2xx count. */
async function wrk(url, script, seconds, tmp) {
  const file = path.join(tmp, `wrk-${Math.random().toString(36).slice(2)}.lua`);
  writeFileSync(file, script);
  const r = await runToEnd('wrk', ['-t', '1', '-c', String(CONNECTIONS), '-d', `${seconds}s`, '-s', file, url]);
  rmSync(file, { force: true });
  if (r.code !== 0) throw new Error(`wrk exited ${r.code}: ${r.stderr}${r.stdout}`);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(r.stdout);
  const total = /(\d+) requests in/.exec(r.stdout);
  const bad = /Non-2xx or 3xx responses:\s+(\d+)/.exec(r.stdout);
  const errors = /Socket errors:.*/.exec(r.stdout);
  if (!rps || !total) throw new Error(`could not read wrk's output:\n${r.stdout}`);
  return {
    rps: Number(rps[1]),
    total: Number(total[1]),
    non2xx: bad ? Number(bad[1]) : 0,
    socketErrors: errors ? errors[0] : undefined,
  };
}

/**
 * fsync per second on a file in `dir`, written the way SQLite writes its WAL in steady state:
 * 4 KiB pages overwriting a preallocated 4 MiB file (the WAL is reused from its start after each
 * checkpoint), one fsync per write. Appending instead would add a metadata commit per fsync.
 */
function fsyncRate(dir, seconds) {
  const file = path.join(dir, 'fsync-probe.bin');
  const size = 4 * 1024 * 1024;
  writeFileSync(file, Buffer.alloc(size));
  const fd = openSync(file, 'r+');
  const block = Buffer.alloc(4096, 1);
  let n = 0;
  try {
    fsyncSync(fd);
    const start = performance.now();
    const until = start + seconds * 1000;
    while (performance.now() < until && n < 1_000_000) {
      writeSync(fd, block, 0, block.length, (n * block.length) % size);
      fsyncSync(fd);
      n++;
    }
    return n / ((performance.now() - start) / 1000);
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
}

export async function loadBenchmark({ quick, tmp, catalogArgs }) {
  requireTool('wrk', 'wrk');
  const seconds = quick ? 1 : 10;
  const warmSeconds = quick ? 0 : 3;
  const runs = quick ? 1 : 3;
  /** @type {{ target: number[], floor: number[], cold: number[] }} */
  const reads = { target: [], floor: [], cold: [] };
  /** @type {{ full: number[], normal: number[], fsync: number[] }} */
  const writes = { full: [], normal: [], fsync: [] };
  /** @type {string[]} */
  const problems = [];
  const { query, variables } = batchQuery([{ urn: USERS, kind: 'dataset' }]);
  const readBody = JSON.stringify({ query, variables });
  const coldBodies = Array.from({ length: COLD_DATASETS }, (_, i) => {
    const q = batchQuery([{ urn: benchDatasetUrn(i, 'r'), kind: 'dataset' }]);
    return JSON.stringify({ query: q.query, variables: q.variables });
  });

  const dbDir = freshDbFolder(tmp, 'load');
  try {
    await measureLoad();
  } finally {
    rmSync(dbDir, { recursive: true, force: true });
  }

  async function measureLoad() {
    const full = await startCatalog({
      db: path.join(dbDir, 'load-full.db'),
      durability: 'full',
      nodeArgs: catalogArgs,
    });
    let bare;
    try {
      const answer = await postJson(`${full.url}/api/graphql`, readBody);
      if (answer.status !== 200 || !JSON.parse(answer.text).data?.e0)
        throw new Error(`the read request found nothing: ${answer.text.slice(0, 300)}`);
      bare = await startBareServer(answer.text);
      await ingestDatasets(full.url, 0, COLD_DATASETS, 'r');
      const cold = await postJson(`${full.url}/api/graphql`, coldBodies[COLD_DATASETS - 1]);
      if (cold.status !== 200 || !JSON.parse(cold.text).data?.e0)
        throw new Error(`the cold read request found nothing: ${cold.text.slice(0, 300)}`);
      // The lookup path is warmed even in --quick: the read figure before each cold run is answered
      // from the answer cache and leaves it unoptimised in a build that has one.
      await wrk(`${full.url}/api/graphql`, roundRobinScript(coldBodies), Math.max(warmSeconds, 1), tmp);
      if (warmSeconds > 0) {
        await wrk(`${full.url}/api/graphql`, readScript(readBody), warmSeconds, tmp);
        await wrk(`${bare.url}/`, readScript(readBody), warmSeconds, tmp);
      }
      for (let i = 0; i < runs; i++) {
        const r = await wrk(`${full.url}/api/graphql`, readScript(readBody), seconds, tmp);
        const b = await wrk(`${bare.url}/`, readScript(readBody), seconds, tmp);
        const c = await wrk(`${full.url}/api/graphql`, roundRobinScript(coldBodies), seconds, tmp);
        for (const { what, x } of [
          { what: 'reads', x: r },
          { what: 'cold reads', x: c },
        ])
          if (x.non2xx || x.socketErrors)
            problems.push(`${what}: ${x.non2xx} non-2xx, ${x.socketErrors ?? 'no socket errors'}`);
        reads.target.push(r.rps);
        reads.floor.push(b.rps);
        reads.cold.push(c.rps);
      }
      if (warmSeconds > 0) await wrk(`${full.url}/`, writeScript(), warmSeconds, tmp);
      for (let i = 0; i < runs; i++) {
        await resetStats(full.url);
        const w = await wrk(`${full.url}/`, writeScript(), seconds, tmp);
        const counted = (await readStats(full.url)).aspectWrites;
        if (w.non2xx || w.socketErrors)
          problems.push(`writes (full): ${w.non2xx} non-2xx of ${w.total}, ${w.socketErrors ?? 'no socket errors'}`);
        if (counted < w.total) problems.push(`writes (full): wrk counted ${w.total}, the catalog ${counted}`);
        writes.full.push(w.rps);
        writes.fsync.push(fsyncRate(tmp, quick ? 0.5 : 2));
      }
    } finally {
      await bare?.stop();
      await full.stop();
    }
    const normal = await startCatalog({
      db: path.join(dbDir, 'load-normal.db'),
      durability: 'normal',
      nodeArgs: catalogArgs,
    });
    try {
      if (warmSeconds > 0) await wrk(`${normal.url}/`, writeScript(), warmSeconds, tmp);
      for (let i = 0; i < runs; i++) {
        const w = await wrk(`${normal.url}/`, writeScript(), seconds, tmp);
        if (w.non2xx || w.socketErrors)
          problems.push(`writes (normal): ${w.non2xx} non-2xx of ${w.total}, ${w.socketErrors ?? 'no socket errors'}`);
        writes.normal.push(w.rps);
      }
    } finally {
      await normal.stop();
    }
  }
  const r = summary(reads.target);
  const b = summary(reads.floor);
  const c = summary(reads.cold);
  const coldShare = c.median / b.median;
  const wf = summary(writes.full);
  const wn = summary(writes.normal);
  const fs = summary(writes.fsync);
  const readShare = r.median / b.median;
  return {
    id: '7',
    title: 'The local catalog under load',
    input: `dist/catalog.js (SQLite file in the OS temp folder, WAL) loaded by \`wrk -t 1 -c ${CONNECTIONS}\` from a second process for ${seconds} s per run, ${runs} run(s) after ${warmSeconds > 0 ? `a ${warmSeconds} s warm-up` : 'no warm-up (but 1 s of the cold reads)'}. Reads: the one-dataset GraphQL document of a hover (db.users, with schema), the same body each time; then the same document for each of ${COLD_DATASETS.toLocaleString('en-US')} benchmark datasets in turn (more than the catalog keeps answers or entities read, so none is read from a cache). Writes: \`POST /aspects?action=ingestProposal\`, each a new editableDatasetProperties description of db.users. The bare server answers the catalog's own response bytes.`,
    rows: [
      {
        figure: 'GraphQL reads',
        unit: 'req/s',
        value: r,
        floorName: 'bare node:http, same bytes',
        floor: b,
        ratio: readShare,
        ratioText: `${(readShare * 100).toFixed(0)} %`,
        aim: '≥ 40 % of bare',
        met: readShare >= 0.4,
        why: WHY.reads,
      },
      {
        figure: `GraphQL reads, ${COLD_DATASETS.toLocaleString('en-US')} datasets in turn`,
        unit: 'req/s',
        value: c,
        floorName: 'bare node:http, the db.users bytes',
        floor: b,
        ratio: coldShare,
        ratioText: `${(coldShare * 100).toFixed(0)} %`,
      },
      {
        figure: 'durable writes (synchronous=FULL)',
        unit: 'req/s',
        value: wf,
        floorName: 'fsync/s on that disk',
        floor: fs,
        ratio: wf.median / fs.median,
        ratioText: `${((wf.median / fs.median) * 100).toFixed(0)} %`,
        aim: '≥ 85 % of fsync',
        met: wf.median / fs.median >= 0.85,
        why: WHY.writes,
      },
      {
        figure: 'writes, --durability normal',
        unit: 'req/s',
        value: wn,
        floorName: 'fsync/s on that disk',
        floor: fs,
        ratio: wn.median / fs.median,
        ratioText: `${((wn.median / fs.median) * 100).toFixed(0)} %`,
      },
    ],
    notes: [
      ...problems,
      'Ratios here are figure ÷ floor (bigger is better). In WAL mode with synchronous=FULL every commit fsyncs the WAL; the catalog commits the writes that arrived during the previous commit together (group commit), so concurrent writers can beat the fsync rate. With synchronous=NORMAL the WAL is synced only at checkpoints.',
    ],
  };
}
