// The results: a table on the terminal and bench/RESULTS.md. A section is one benchmark; a row is
// one figure with its floor, the ratio of the two, the aim and whether it was met.
import os from 'node:os';

/**
 * @typedef {{min: number, median: number, max: number, runs: number}} Summary
 * @typedef {{
 *   figure: string, unit: string, value: Summary,
 *   floorName?: string, floor?: Summary, floorUnit?: string,
 *   ratio?: number, ratioText?: string,
 *   aim?: string, met?: boolean,
 *   why?: string,
 * }} Row
 * @typedef {{ id: string, title: string, input: string, rows: Row[], notes?: string[] }} Section
 */

export function formatNumber(v, unit) {
  if (v === undefined || Number.isNaN(v)) return '—';
  if (unit === 'count' || unit === 'requests' || unit === 'files' || unit === 'URNs')
    return Math.round(v).toLocaleString('en-US');
  if (unit === 'bytes') return formatBytes(v);
  const abs = Math.abs(v);
  const digits = abs >= 1000 ? 0 : abs >= 100 ? 1 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function formatBytes(n) {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(2)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

const withUnit = (v, unit) =>
  unit === 'bytes' ? formatBytes(v) : `${formatNumber(v, unit)}${unit && unit !== 'count' ? ` ${unit}` : ''}`;

function cells(row) {
  const u = row.unit;
  const same = row.value.runs <= 1 || row.value.min === row.value.max;
  const floorUnit = row.floorUnit ?? u;
  return {
    figure: row.figure,
    min: same ? '' : withUnit(row.value.min, u),
    median: withUnit(row.value.median, u),
    max: same ? '' : withUnit(row.value.max, u),
    floor: row.floor ? `${withUnit(row.floor.median, floorUnit)}${row.floorName ? ` (${row.floorName})` : ''}` : '—',
    ratio: row.ratioText ?? (row.ratio === undefined ? '—' : `${row.ratio.toFixed(2)}×`),
    aim: row.aim ?? '—',
    met: row.met === undefined ? '' : row.met ? 'met' : 'MISSED',
  };
}

/** @type {Array<[keyof ReturnType<typeof cells>, string]>} */
const COLUMNS = [
  ['figure', 'figure'],
  ['min', 'min'],
  ['median', 'median'],
  ['max', 'max'],
  ['floor', 'floor (median)'],
  ['ratio', 'ratio'],
  ['aim', 'aim'],
  ['met', ''],
];

/** The terminal table of every section. */
export function printTable(sections, write = (s) => process.stdout.write(s)) {
  for (const section of sections) {
    write(`\n${section.id}. ${section.title}\n   ${section.input}\n`);
    const rows = section.rows.map(cells);
    const widths = COLUMNS.map(([key, label]) =>
      Math.min(key === 'floor' ? 44 : 60, Math.max(label.length, ...rows.map((r) => r[key].length))),
    );
    const line = (r) =>
      '   ' +
      COLUMNS.map(([key], i) => {
        const width = /** @type {number} */ (widths[i]);
        const text = r[key].length > width ? r[key].slice(0, width - 1) + '…' : r[key];
        return key === 'figure' || key === 'aim' || key === 'floor' ? text.padEnd(width) : text.padStart(width);
      })
        .join('  ')
        .trimEnd() +
      '\n';
    write(line(Object.fromEntries(COLUMNS.map(([k, label]) => [k, label]))));
    for (const r of rows) write(line(r));
    for (const { figures, why } of missedWhys(section)) write(`   ↳ ${figures.join('; ')}: ${why}\n`);
    for (const n of section.notes ?? []) write(`   note: ${n}\n`);
  }
}

/** What the machine was and how busy, for the top of RESULTS.md. */
export function machineInfo(loadBefore, loadAfter) {
  const cpus = os.cpus();
  return {
    cpu: `${cpus[0]?.model ?? 'unknown CPU'} × ${cpus.length}`,
    memory: formatBytes(os.totalmem()),
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    node: process.version,
    date: new Date().toISOString(),
    load: { before: loadBefore, after: loadAfter },
    busy: Math.max(loadBefore[0], loadAfter[0]) > cpus.length * 0.5,
  };
}

/** The explanation of each missed aim, once per distinct text. */
function missedWhys(section) {
  const byText = new Map();
  for (const row of section.rows) {
    if (row.met !== false || !row.why) continue;
    if (!byText.has(row.why)) byText.set(row.why, []);
    byText.get(row.why).push(row.figure);
  }
  return [...byText].map(([why, figures]) => ({ why, figures }));
}

const mdCell = (s) => String(s).replaceAll('|', '\\|');

export function resultsMarkdown(sections, machine, { quick, command, durationS, profileDir, history }) {
  const out = [];
  out.push('# Benchmark results', '');
  out.push(`Written by \`${command}\` (bench/run.mjs); see bench/README.md for what each benchmark does.`, '');
  out.push('| | |', '| --- | --- |');
  out.push(`| machine | ${machine.cpu}, ${machine.memory} RAM, ${machine.os} |`);
  out.push(`| Node | ${machine.node} |`);
  out.push(`| date | ${machine.date} |`);
  out.push(
    `| mode | ${quick ? 'quick (small inputs: figures are not comparable with a full run)' : 'full'}, ${durationS.toFixed(0)} s |`,
  );
  out.push(
    `| load average (1, 5, 15 min) | before ${machine.load.before.map((x) => x.toFixed(2)).join(', ')}; after ${machine.load.after.map((x) => x.toFixed(2)).join(', ')} |`,
  );
  out.push('');
  if (machine.busy) {
    out.push(
      `**The machine was busy during this run** (1-minute load average above half the ${os.cpus().length} cores): other processes competed for the CPU, so times are inflated and noisy, the ratios less so (each floor ran interleaved with its figure, under the same load). Rerun on a quiet machine before quoting absolute numbers.`,
      '',
    );
  }
  if (profileDir) out.push(`CPU profiles of the server and catalog processes: \`${profileDir}\`.`, '');
  if (history) out.push(history);
  out.push(
    'Each figure is min / median / max over the measured runs, after a warm-up; the floor is the same work done the simplest way, measured in the same run on the same input, interleaved with the figure. The ratio is figure ÷ floor (medians), or floor ÷ figure where bigger is better.',
    '',
  );
  for (const section of sections) {
    out.push(`## ${section.id}. ${section.title}`, '', section.input, '');
    out.push(
      '| figure | min | median | max | floor (median) | ratio | aim | |',
      '| --- | ---: | ---: | ---: | --- | ---: | --- | --- |',
    );
    for (const row of section.rows) {
      const c = cells(row);
      out.push(
        `| ${COLUMNS.map(([k]) => mdCell(k === 'met' ? (row.met === undefined ? '' : row.met ? 'met' : '**missed**') : c[k])).join(' | ')} |`,
      );
    }
    out.push('');
    const whys = missedWhys(section);
    if (whys.length > 0) {
      out.push('Why the missed aims are missed:', '');
      for (const { figures, why } of whys) out.push(`- **${figures.join('; ')}**: ${why}`);
      out.push('');
    }
    for (const n of section.notes ?? []) out.push(`- ${n}`);
    if ((section.notes ?? []).length > 0) out.push('');
  }
  return out.join('\n');
}
