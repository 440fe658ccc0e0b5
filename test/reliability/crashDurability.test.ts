/**
 * Crash durability of the local catalog: four writers stream creates, updates and batches at a
 * catalog process; each write counts as acknowledged only once its 200 arrived. At a random
 * acknowledged write the process gets `kill -9` while other writes are still in flight; it is
 * restarted on the same database file and every acknowledged write must read back (for an entity
 * whose next write was in flight at the kill, that newer value is allowed too; a batch is all or
 * nothing). Repeated 20 times on one file. (test/catalog/durability.test.ts kills between writes;
 * this kills during them.)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { startCatalogProcess, type CatalogProcess } from '../support/catalogProcess';

const KILLS = 20;
const WRITERS = 4;

interface Entity {
  acked?: string;
  inFlight?: string;
}

function proposal(urn: string, description: string): Record<string, unknown> {
  return {
    entityType: 'mlFeature',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName: 'mlFeatureProperties',
    aspect: { value: JSON.stringify({ description, dataType: 'CONTINUOUS' }), contentType: 'application/json' },
  };
}

async function post(url: string, action: string, body: unknown): Promise<number> {
  const r = await fetch(`${url}/aspects?action=${action}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  await r.text();
  return r.status;
}

/** The stored description of each URN (undefined when absent), read in GraphQL batches. */
async function readAll(url: string, urns: string[]): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>();
  for (let i = 0; i < urns.length; i += 500) {
    const chunk = urns.slice(i, i + 500);
    const query = `query r(${chunk.map((_, j) => `$u${j}: String!`).join(', ')}) { ${chunk.map((_, j) => `e${j}: mlFeature(urn: $u${j}) { properties { description } }`).join(' ')} }`;
    const variables = Object.fromEntries(chunk.map((u, j) => [`u${j}`, u]));
    const r = await fetch(`${url}/api/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await r.json()) as {
      data: Record<string, { properties: { description: string | null } | null } | null>;
      errors?: unknown;
    };
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    chunk.forEach((u, j) => out.set(u, body.data[`e${j}`]?.properties?.description ?? undefined));
  }
  return out;
}

test(`kill -9 in the middle of a stream of writes, ${KILLS} times: every acknowledged write is there after the restart`, async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'catalog-crash-'));
  const db = path.join(dir, 'catalog.db');
  const entities = new Map<string, Entity>();
  /** Batches whose answer had not come at the kill: all of it or none of it may be there. */
  let unansweredBatches: string[][] = [];
  let running: CatalogProcess | undefined;
  let acknowledged = 0;
  let seq = 0;
  let inFlightAtKills = 0;
  t.after(async () => {
    await running?.kill9();
    rmSync(dir, { recursive: true, force: true });
  });

  const verify = async (url: string, round: number): Promise<void> => {
    const stored = await readAll(url, [...entities.keys()]);
    for (const batch of unansweredBatches) {
      const there = batch.filter((u) => stored.get(u) !== undefined).length;
      assert.ok(
        there === 0 || there === batch.length,
        `after kill ${round}: ${there} of the ${batch.length} proposals of one batch were stored`,
      );
    }
    unansweredBatches = [];
    for (const [urn, e] of entities) {
      const now = stored.get(urn);
      const allowed = [e.acked, e.inFlight].filter((v): v is string => v !== undefined);
      if (e.acked === undefined && now === undefined) {
        // Created by a write that the kill cut short and that never committed: it does not exist.
        entities.delete(urn);
        continue;
      }
      assert.ok(
        now !== undefined && allowed.includes(now),
        `after kill ${round}: ${urn} holds ${JSON.stringify(now)}; acknowledged ${JSON.stringify(e.acked)}${e.inFlight ? `, in flight ${JSON.stringify(e.inFlight)}` : ''}`,
      );
      // What is there now is what was acknowledged: the next round starts from it.
      e.acked = now;
      delete e.inFlight;
    }
  };

  for (let round = 1; round <= KILLS; round++) {
    running = await startCatalogProcess({ db, args: ['--quiet'] });
    const url = running.url;
    await verify(url, round - 1);
    const proc = running;
    // The kill comes at a random acknowledged write of this round, while other writers are mid-request.
    const killAt = acknowledged + 5 + Math.floor(Math.random() * 60);
    let killed: Promise<void> | undefined;
    const onAck = (): void => {
      acknowledged++;
      if (acknowledged >= killAt && !killed) {
        inFlightAtKills += [...entities.values()].filter((e) => e.inFlight !== undefined).length;
        killed = proc.kill9();
      }
    };

    const writer = async (k: number): Promise<void> => {
      const mine = [...entities.keys()].filter((u) => u.includes(`crash_w${k},`));
      while (!killed) {
        const n = seq++;
        const choice = n % 5;
        try {
          if (choice === 4) {
            // A batch: three new entities in one transaction, acknowledged together.
            const batch = [0, 1, 2].map((j) => `urn:li:mlFeature:(crash_w${k},b${n}_${j})`);
            for (const u of batch) entities.set(u, { inFlight: `batch ${n}` });
            unansweredBatches.push(batch);
            const status = await post(url, 'ingestProposalBatch', {
              proposals: batch.map((u) => proposal(u, `batch ${n}`)),
              async: 'false',
            });
            if (status !== 200) throw new Error(`batch answered ${status}`);
            unansweredBatches = unansweredBatches.filter((b) => b !== batch);
            for (const u of batch) entities.set(u, { acked: `batch ${n}` });
            mine.push(...batch);
            onAck();
          } else {
            const update = choice >= 2 && mine.length > 0;
            const urn = update ? mine[n % mine.length]! : `urn:li:mlFeature:(crash_w${k},f${n})`;
            const e = entities.get(urn) ?? {};
            const description = `writer ${k} write ${n}`;
            entities.set(urn, { ...e, inFlight: description });
            const status = await post(url, 'ingestProposal', { proposal: proposal(urn, description), async: 'false' });
            if (status !== 200) throw new Error(`write answered ${status}`);
            entities.set(urn, { acked: description });
            if (!update) mine.push(urn);
            onAck();
          }
        } catch (e) {
          // Only the kill may stop a writer: any failure before it is a real one.
          if (!killed) throw e;
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, k) => writer(k)));
    await killed;
    assert.equal(proc.child.signalCode, 'SIGKILL', `round ${round}: the catalog was killed with SIGKILL`);
    running = undefined;
  }
  running = await startCatalogProcess({ db, args: ['--quiet'] });
  await verify(running.url, KILLS);
  const present = [...entities.values()].filter((e) => e.acked !== undefined).length;
  assert.ok(inFlightAtKills > 0, 'some writes were in flight when the kills came');
  t.diagnostic(
    `${KILLS} kills, ${acknowledged} acknowledged writes, ${inFlightAtKills} in flight at the kills, ${present} entities read back as acknowledged`,
  );
  console.log(
    `crash durability: ${KILLS} kill -9 rounds mid-stream, ${acknowledged} acknowledged writes (${inFlightAtKills} more in flight at the kills), ${present} entities read back as acknowledged`,
  );
  await running.stop();
  running = undefined;
});
