// Generated inputs. Deterministic (the same sizes give the same text), so runs compare.

/** A small seeded PRNG (mulberry32). */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Code lines without URNs, for filling a file up to its size ("return" and "turn:" are near misses). */
const PYTHON_FILLER = [
  '',
  'def load_users(spark, threshold=10):',
  '    """Load the users and their orders for the day."""',
  '    df = spark.table("db.users").where(F.col("day") == today())',
  '    return df.filter(F.col("amount") > threshold).groupBy("user_id").agg(F.sum("amount"))',
  "    # turn: the daily job re-reads yesterday's partition when the upstream return is late",
  '    result = {key: value for key, value in sorted(rows.items()) if value is not None}',
  '    logger.info("loaded %d rows from %s in %.1f s", len(rows), table, elapsed)',
  '    if not rows:',
  '        raise ValueError(f"no rows for {day}: check the upstream job")',
  '    frame = frame.withColumn("country", F.upper(F.col("country")))',
  '    for attempt in range(retries):',
  '        time.sleep(backoff * 2 ** attempt)',
];
const FILL_COMMENT = '# the nightly job writes one partition per day and keeps ninety days of history for the features';

/**
 * Python-like source of about `bytes` characters holding exactly `urns` top-level URNs: string
 * constants (datasets, features, models, users, in lists, calls and comments) and every tenth
 * block a `make_dataset_urn(...)` builder call instead of a dataset literal; code between them.
 */
export function pythonLike(bytes, urns) {
  const PER_BLOCK = 5;
  const blocks = Math.ceil(urns / PER_BLOCK);
  const heads = [];
  for (let b = 0; b < blocks; b++) {
    const n = Math.min(PER_BLOCK, urns - b * PER_BLOCK);
    const dataset =
      b % 10 === 9
        ? `make_dataset_urn("hive", "db.users_${b}", "PROD")`
        : `"urn:li:dataset:(urn:li:dataPlatform:hive,db.users_${b},PROD)"`;
    const urnsOfBlock = [
      `# owner: urn:li:corpuser:user${b % 977}`,
      `USERS_${b} = ${dataset}`,
      `FEATURES_${b} = ["urn:li:mlFeature:(users_table_${b},age)", "urn:li:mlFeature:(users_table_${b},country)"]`,
      `MODEL_${b} = client.get_entity("urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn-${b},PROD)")`,
    ];
    // Five URNs in four lines: drop lines from the end for a last, partial block.
    const lines = n === 5 ? urnsOfBlock : n >= 3 ? urnsOfBlock.slice(0, n - 1) : urnsOfBlock.slice(0, n);
    heads.push(lines.join('\n') + '\n');
  }
  const headBytes = heads.reduce((s, h) => s + h.length, 0);
  const fillPerBlock = Math.max(0, Math.floor((bytes - headBytes) / blocks));
  const parts = [];
  let f = 0;
  for (const head of heads) {
    parts.push(head);
    let budget = fillPerBlock;
    while (budget > 0) {
      const line = /** @type {string} */ (PYTHON_FILLER[f % PYTHON_FILLER.length]);
      if (line.length + 1 <= budget) {
        parts.push(line + '\n');
        budget -= line.length + 1;
        f++;
      } else {
        parts.push(FILL_COMMENT.slice(0, Math.max(0, budget - 1)) + '\n');
        budget = 0;
      }
    }
  }
  return parts.join('');
}

/**
 * A docs-as-code YAML file of about `bytes` characters: datasets with descriptions, owners and
 * columns, and feature tables with their feature lists.
 */
export function docsAsCodeYaml(bytes) {
  const out = ['# Catalog entities described next to the code that uses them.\n', 'datasets:\n'];
  let size = out.reduce((n, s) => n + s.length, 0);
  const tables = [];
  for (let i = 0; size < bytes * 0.7; i++) {
    const entry = [
      `  - urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.table_${i},PROD)`,
      `    description: Table ${i} of the shop's warehouse, one row per order line, loaded nightly.`,
      `    owner: urn:li:corpuser:user${i % 311}`,
      '    tags: [orders, "pii: false", nightly]',
      '    columns:',
      '      - name: order_id',
      '        description: Primary key of the order.',
      '      - name: user_id',
      `        description: "The user who placed the order (see urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD))."`,
      '      - name: amount',
      '        description: >-',
      '          Amount in EUR after refunds,',
      '          rounded to the cent.',
      '',
    ].join('\n');
    out.push(entry);
    size += entry.length;
    tables.push(i);
  }
  out.push('feature_tables:\n');
  for (let i = 0; size < bytes; i++) {
    const entry = [
      `  - urn: urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,table_${i})`,
      `    description: 'Features of table ${i}.'`,
      '    features:',
      `      - urn:li:mlFeature:(table_${i},order_count)`,
      `      - urn:li:mlFeature:(table_${i},avg_amount)`,
      `      - "urn:li:mlFeature:(table_${i},days_since_signup)"`,
      '',
    ].join('\n');
    out.push(entry);
    size += entry.length;
  }
  return out.join('');
}

/** Count of `urn:` hits by a bare indexOf loop: the floor of benchmark 1. */
export function countUrnPrefixes(text) {
  let n = 0;
  for (let i = text.indexOf('urn:'); i >= 0; i = text.indexOf('urn:', i + 4)) n++;
  return n;
}
