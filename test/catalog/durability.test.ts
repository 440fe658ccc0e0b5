/**
 * Durability (synchronous=FULL, WAL): a write the catalog acknowledged survives `kill -9` of
 * the catalog process. Three rounds of write → kill -9 → restart on the same file → read all.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { ASPECT_FQCN } from '../../model/src/aspects';
import { encodeUrnForPath } from '../../model/src/urn';
import { startCatalogProcess, type CatalogProcess } from '../support/catalogProcess';

const FQCN = ASPECT_FQCN.mlFeatureProperties;

async function writeFeature(url: string, urn: string, description: string): Promise<number> {
  const res = await fetch(`${url}/aspects?action=ingestProposal`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-RestLi-Protocol-Version': '2.0.0' },
    body: JSON.stringify({
      proposal: {
        entityType: 'mlFeature',
        entityUrn: urn,
        changeType: 'UPSERT',
        aspectName: 'mlFeatureProperties',
        aspect: { value: JSON.stringify({ description, dataType: 'CONTINUOUS' }), contentType: 'application/json' },
      },
      async: 'false',
    }),
  });
  await res.text();
  return res.status;
}

async function readDescription(url: string, urn: string): Promise<string | undefined> {
  const res = await fetch(`${url}/aspects/${encodeUrnForPath(urn)}?aspect=mlFeatureProperties&version=0`);
  if (res.status === 404) {
    await res.text();
    return undefined;
  }
  const body = (await res.json()) as { aspect: Record<string, { description: string }> };
  return body.aspect[FQCN]?.description;
}

test('acknowledged writes survive kill -9 of the catalog and a restart on the same file (3 rounds)', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'catalog-durability-'));
  const db = path.join(dir, 'catalog.db');
  let running: CatalogProcess | undefined;
  t.after(async () => {
    await running?.kill9();
    rmSync(dir, { recursive: true, force: true });
  });
  const acknowledged = new Map<string, string>();
  for (let round = 1; round <= 3; round++) {
    running = await startCatalogProcess({ db, args: ['--quiet'] });
    for (const [urn, description] of acknowledged) {
      assert.equal(await readDescription(running.url, urn), description, `round ${round}: ${urn} after kill -9`);
    }
    // Sequential writes, then a burst of concurrent ones; each counts once it is answered 200.
    for (let i = 0; i < 15; i++) {
      const urn = `urn:li:mlFeature:(durable_r${round},f${i})`;
      const description = `round ${round} feature ${i}`;
      if ((await writeFeature(running.url, urn, description)) === 200) acknowledged.set(urn, description);
    }
    const burst = Array.from({ length: 15 }, (_, i) => ({
      urn: `urn:li:mlFeature:(durable_r${round},burst${i})`,
      description: `burst ${round}.${i}`,
    }));
    const statuses = await Promise.all(burst.map((b) => writeFeature(running!.url, b.urn, b.description)));
    burst.forEach((b, i) => {
      if (statuses[i] === 200) acknowledged.set(b.urn, b.description);
    });
    // An update of an earlier round's entity must survive too.
    if (round > 1) {
      const urn = `urn:li:mlFeature:(durable_r${round - 1},f0)`;
      if ((await writeFeature(running.url, urn, `updated in round ${round}`)) === 200)
        acknowledged.set(urn, `updated in round ${round}`);
    }
    assert.equal(acknowledged.size, round * 30, 'every write was acknowledged');
    await running.kill9();
    assert.equal(running.child.signalCode, 'SIGKILL');
    running = undefined;
  }
  running = await startCatalogProcess({ db, args: ['--quiet'] });
  for (const [urn, description] of acknowledged)
    assert.equal(await readDescription(running.url, urn), description, urn);
  await running.stop();
  assert.equal(running.child.exitCode, 0);
  running = undefined;
});
