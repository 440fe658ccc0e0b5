/**
 * Racing description writes: 8 language server processes each set a different description of
 * one dataset and of one of its columns at the same moment, round after round (half of them
 * through the aspect path, half on the GraphQL path), against the catalog in each mode. After each round the description is
 * exactly one writer's whole text (never a mix, never cut), the column has one entry, not one
 * per writer, the other columns and the `created` stamp are kept, the aspects still pass the
 * aspect shape check (checkAspect), and each aspect's version grew by exactly the number of writes answered
 * `written` (none lost, none doubled).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { checkAspect } from '../../model/src/aspects';
import { graphql } from '../support/catalogHttp';
import { startCatalog } from '../../catalog/src/server';
import { COMPAT_MODES, S, serverFor, type Catalog } from '../support/fixture';
import type { LspSession } from '../support/lspClient';
import type { WriteResult } from '../../model/src/protocol';

const WRITERS = 8;
const ROUNDS = 12;
const COLUMN = 'age';

/** A text only writer `k` of round `r` writes: its own letter throughout, quotes, escapes, non-ASCII, lines. */
function textOf(kind: 'dataset' | 'column', k: number, r: number): string {
  const mine = String.fromCharCode(0x41 + k);
  return `${kind} text of writer ${k}, round ${r}: «${`${mine}ßΩ"\\\u00e9 ${mine}\n`.repeat(40)}» ${mine.repeat(1500)} end ${k}/${r}`;
}

async function readBack(
  url: string,
): Promise<{ dataset: { value: any; version: number }; schema: { value: any; version: number } }> {
  const r = await fetch(
    `${url}/entitiesV2/${encodeURIComponent(S.users)}?aspects=List(editableDatasetProperties,editableSchemaMetadata)`,
    { headers: { 'X-RestLi-Protocol-Version': '2.0.0' } },
  );
  const body = (await r.json()) as { aspects: Record<string, { value: any; systemMetadata: { version: string } }> };
  const env = (name: string) => ({
    value: body.aspects[name]?.value,
    version: Number(body.aspects[name]?.systemMetadata.version ?? 0),
  });
  return { dataset: env('editableDatasetProperties'), schema: env('editableSchemaMetadata') };
}

for (const compat of COMPAT_MODES)
  describe(`racing description writes (${compat} catalog)`, () => {
    let catalog: Catalog;
    let writers: LspSession[];
    const log: string[] = [];
    before(async () => {
      catalog = await startCatalog({ port: 0, db: ':memory:', sample: true, compat, log: (l) => log.push(l) });
      writers = await Promise.all(
        Array.from({ length: WRITERS }, (_, k) =>
          serverFor(catalog.url, {
            settings: { writePath: k < WRITERS / 2 ? 'aspects' : 'graphql', actor: `urn:li:corpuser:writer${k}` },
          }),
        ),
      );
    });
    after(async () => {
      const conflicts = log.filter((l) => /^POST \/aspects\?action=ingestProposal 422 /.test(l)).length;
      console.log(
        `racing writes (${compat} catalog): ${WRITERS} servers × ${ROUNDS} rounds × 2 descriptions = ${WRITERS * ROUNDS * 2} commands; ${conflicts} conditional writes refused as stale and redone`,
      );
      await Promise.all(writers.map((w) => w.stop()));
      await catalog.close();
    });

    test(`${WRITERS} servers × ${ROUNDS} rounds: each description is one writer's whole text, the aspects stay valid, and every written command is one version`, async () => {
      // Another column's edited description, written before the race, must survive it.
      const first = await writers[0]!.command<WriteResult>('catalogLens.setColumnDescription', {
        urn: S.users,
        fieldPath: 'email',
        description: 'Login e-mail, edited before the race.',
      });
      assert.equal(first.status, 'written', first.message);
      const seed = await writers[0]!.command<WriteResult>('catalogLens.setDatasetDescription', {
        urn: S.users,
        description: 'Before the race.',
      });
      assert.equal(seed.status, 'written', seed.message);
      const start = await readBack(catalog.url);
      const created = { dataset: start.dataset.value.created, schema: start.schema.value.created };

      let previous = start;
      for (let r = 0; r < ROUNDS; r++) {
        const results = await Promise.all(
          writers.flatMap((w, k) => [
            w.command<WriteResult>('catalogLens.setDatasetDescription', {
              urn: S.users,
              description: textOf('dataset', k, r),
            }),
            w.command<WriteResult>('catalogLens.setColumnDescription', {
              urn: S.users,
              fieldPath: COLUMN,
              description: textOf('column', k, r),
            }),
          ]),
        );
        for (const x of results) assert.equal(x.status, 'written', `round ${r}: ${x.message}`);
        const now = await readBack(catalog.url);

        const datasetTexts = writers.map((_, k) => textOf('dataset', k, r));
        assert.ok(
          datasetTexts.includes(now.dataset.value.description),
          `round ${r}: the dataset description is not one writer's whole text: ${String(now.dataset.value.description).slice(0, 120)}…`,
        );
        const entries = now.schema.value.editableSchemaFieldInfo as Array<{ fieldPath: string; description: string }>;
        assert.deepEqual(entries.map((e) => e.fieldPath).sort(), ['age', 'email'], `round ${r}: one entry per column`);
        const column = entries.find((e) => e.fieldPath === COLUMN)!;
        assert.ok(
          writers.map((_, k) => textOf('column', k, r)).includes(column.description),
          `round ${r}: the column description is not one writer's whole text`,
        );
        assert.equal(
          entries.find((e) => e.fieldPath === 'email')!.description,
          'Login e-mail, edited before the race.',
        );

        assert.deepEqual(checkAspect('editableDatasetProperties', now.dataset.value), []);
        assert.deepEqual(checkAspect('editableSchemaMetadata', now.schema.value), []);
        assert.deepEqual(now.dataset.value.created, created.dataset, "created is the first write's");
        assert.deepEqual(now.schema.value.created, created.schema, "created is the first write's");
        assert.equal(
          now.dataset.version - previous.dataset.version,
          WRITERS,
          `round ${r}: one version per written dataset description`,
        );
        assert.equal(
          now.schema.version - previous.schema.version,
          WRITERS,
          `round ${r}: one version per written column description`,
        );
        previous = now;
      }

      // The writers did race: conditional writes were refused as stale (and redone) along the way.
      assert.ok(
        log.some((l) => /^POST \/aspects\?action=ingestProposal 422 /.test(l)),
        'no write was ever stale: the writers did not race',
      );

      // What the language servers' readers see (GraphQL) is the same whole text.
      const seen = await graphql(
        catalog.url,
        'query($u: String!) { dataset(urn: $u) { editableProperties { description } } }',
        { u: S.users },
      );
      assert.equal(seen.data.dataset.editableProperties.description, previous.dataset.value.description);
    });
  });
