#!/usr/bin/env node
// eddy (BATCH) and DuckDB side by side on the same bounded Nexmark data (issue 7, part 5).
//
//   cd bench/duckdb && npm install        # once: @duckdb/node-api into bench/duckdb/node_modules
//   node bench/duckdb/compare.mjs [--events N] [--queries q1,q2,..|all] [--eddy PATH] ...
//
// 1. Export: `eddy sql -i ../nexmark/ddl.sql -f sql/export.sql` (BATCH) generates N Nexmark events with the built-in
//    nexmark connector and writes the flat person, auction and bid tables as CSV part files.
// 2. For each query, timed (wall clock, and the CPU time of all threads):
//    - eddy: `eddy sql -i sql/tables.sql -f sql/<q>.sql`, a new process in BATCH mode whose
//      filesystem sources read the exported CSV and whose filesystem sink writes the result
//      as CSV (process start, planning, CSV parsing and writing included);
//    - DuckDB: a new in-memory instance, views over read_csv() of the same files, and
//      `COPY (<sql/<q>.duckdb.sql>) TO '<file>.csv'` (instance creation, CSV parsing and
//      writing included: nothing is loaded before the clock starts).
// 3. Both results are read back, normalized by the column types of the eddy sink (DECIMAL
//    scale, timestamp fraction), sorted and compared; any difference is printed and the exit
//    status is 1.
// 4. A table: query, result rows, eddy s, DuckDB s, ratio eddy/DuckDB (and CPU seconds).

import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const sqlDir = path.join(here, 'sql');

// The default list: the queries that make sense in batch and that the issue names.
const DEFAULT_QUERIES = ['q1', 'q2', 'q3', 'q4', 'q15', 'q17'];
// Extras (`--queries all` runs them too): q0 (read and write the bids), q20 (a join of the two
// big tables), q22 (string splitting). Not here: the window queries (q5, q7, q8, q11, q12: the
// CSV tables have no watermark), q6/q10/q13 (not runnable in eddy: bench/nexmark/q*.sql), q9,
// q18 and q19 (a Top-N or deduplication whose ties, bids at the same price or millisecond,
// make the kept row depend on the engine), q14 (a C++ UDF of the nexmark driver), q16 (per
// minute: one group at 10 M events/s) and q21 (REGEXP_EXTRACT gives NULL in Flink, '' in DuckDB).
const EXTRA_QUERIES = ['q0', 'q20', 'q22'];

function usage() {
  return `usage: node compare.mjs [options]
  --events N        Nexmark events to generate and export (default 2000000)
  --rate R          first-event.rate, events per second of event time (default 10000000)
  --queries LIST    comma-separated (default ${DEFAULT_QUERIES.join(',')}); 'all' adds ${EXTRA_QUERIES.join(',')}
  --eddy PATH       the eddy binary (default $EDDY_BIN, else build/src/client/eddy of the repo)
  --parallelism P   eddy's parallelism.default for the queries (default: the cores, ${os.cpus().length})
  --threads T       DuckDB's threads (default: the cores, ${os.cpus().length})
  --export-parallelism P  subtasks of the export, so part files per table (default: the cores)
  --work-dir DIR    where the CSV and the results go (default ${os.tmpdir()}/eddy-duckdb-<events>)
  --reuse-export    skip the export when DIR holds one of the same events and rate
  --repeat N        run each engine N times per query, alternating, and keep the fastest (default 1)
  --duckdb-preserve-order  keep DuckDB's preserve_insertion_order (default: off, as eddy's
                    results have no order either; on, DuckDB writes the result in input order)
  --markdown        print the table as Markdown
  --keep            keep the result files (default: removed after a matching comparison)`;
}

function parseArgs(argv) {
  const cores = os.cpus().length;
  const o = {
    events: 2_000_000, rate: 10_000_000, queries: DEFAULT_QUERIES, eddy: null,
    parallelism: cores, threads: cores, exportParallelism: cores, workDir: null,
    reuseExport: false, repeat: 1, markdown: false, keep: false, duckdbPreserveOrder: false,
  };
  const positiveInt = (flag, v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} expects a positive integer, got '${v}'`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    switch (a) {
      case '--events': o.events = positiveInt(a, value()); break;
      case '--rate': o.rate = positiveInt(a, value()); break;
      case '--queries': {
        const v = value();
        o.queries = v === 'all' ? [...DEFAULT_QUERIES, ...EXTRA_QUERIES] : v.split(',').map((q) => q.trim()).filter(Boolean);
        break;
      }
      case '--eddy': o.eddy = value(); break;
      case '--parallelism': o.parallelism = positiveInt(a, value()); break;
      case '--threads': o.threads = positiveInt(a, value()); break;
      case '--export-parallelism': o.exportParallelism = positiveInt(a, value()); break;
      case '--work-dir': o.workDir = value(); break;
      case '--reuse-export': o.reuseExport = true; break;
      case '--repeat': o.repeat = positiveInt(a, value()); break;
      case '--markdown': o.markdown = true; break;
      case '--keep': o.keep = true; break;
      case '--duckdb-preserve-order': o.duckdbPreserveOrder = true; break;
      case '-h': case '--help': console.log(usage()); process.exit(0);
      default: throw new Error(`unknown option '${a}'\n${usage()}`);
    }
  }
  o.eddy = path.resolve(o.eddy ?? process.env.EDDY_BIN ?? path.join(repoRoot, 'build/src/client/eddy'));
  o.workDir = path.resolve(o.workDir ?? path.join(os.tmpdir(), `eddy-duckdb-${o.events}`));
  for (const q of o.queries) {
    for (const f of [`${q}.sql`, `${q}.duckdb.sql`]) {
      if (!fs.existsSync(path.join(sqlDir, f))) throw new Error(`no ${path.join('bench/duckdb/sql', f)} for query '${q}'`);
    }
  }
  return o;
}

// ---------------------------------------------------------------------------------------------
// Running eddy: a child process, timed from spawn to exit. CPU time (user + system of the child
// and its threads) comes from bash's `times` after the child has exited.

function runEddy(opts, args, env) {
  return new Promise((resolve) => {
    const script = '"$0" "$@"; rc=$?; times >&2; exit $rc';
    const start = process.hrtime.bigint();
    const child = spawn('/bin/bash', ['-c', script, opts.eddy, ...args], {
      env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => {
      const wall = Number(process.hrtime.bigint() - start) / 1e9;
      // `times` prints two lines: the shell's user/system, then its children's.
      const lines = stderr.trimEnd().split('\n');
      const childTimes = lines.pop() ?? '';
      lines.pop();
      const seconds = [...childTimes.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
      const cpu = seconds.length === 2 ? seconds[0] + seconds[1] : NaN;
      resolve({ code, wall, cpu, stdout, stderr: lines.join('\n') });
    });
  });
}

const TABLE_COLUMNS = {
  person: [['id', 'BIGINT'], ['name', 'VARCHAR'], ['emailAddress', 'VARCHAR'], ['creditCard', 'VARCHAR'],
    ['city', 'VARCHAR'], ['state', 'VARCHAR'], ['dateTime', 'TIMESTAMP'], ['extra', 'VARCHAR']],
  auction: [['id', 'BIGINT'], ['itemName', 'VARCHAR'], ['description', 'VARCHAR'], ['initialBid', 'BIGINT'],
    ['reserve', 'BIGINT'], ['dateTime', 'TIMESTAMP'], ['expires', 'TIMESTAMP'], ['seller', 'BIGINT'],
    ['category', 'BIGINT'], ['extra', 'VARCHAR']],
  bid: [['auction', 'BIGINT'], ['bidder', 'BIGINT'], ['price', 'BIGINT'], ['channel', 'VARCHAR'],
    ['url', 'VARCHAR'], ['dateTime', 'TIMESTAMP'], ['extra', 'VARCHAR']],
};

const sqlString = (s) => `'${s.replaceAll("'", "''")}'`;

// DuckDB: everything from the instance's creation to the end of the COPY is timed, CPU time
// from process.cpuUsage() (DuckDB's threads run in this process; the driver is idle meanwhile).
async function runDuckdb(opts, duckdb, query, csvDir, outFile) {
  const querySql = fs.readFileSync(path.join(sqlDir, `${query}.duckdb.sql`), 'utf8')
    .replace(/^\s*--.*$/gm, '').trim().replace(/;\s*$/, '');
  const cpu0 = process.cpuUsage();
  const start = process.hrtime.bigint();
  const instance = await duckdb.DuckDBInstance.create(':memory:', {
    threads: String(opts.threads), preserve_insertion_order: String(opts.duckdbPreserveOrder),
  });
  const connection = await instance.connect();
  try {
    for (const [table, columns] of Object.entries(TABLE_COLUMNS)) {
      const columnSpec = columns.map(([n, t]) => `${sqlString(n)}: ${sqlString(t)}`).join(', ');
      // The options of the files eddy's csv format writes: RFC 4180, no header, NULL an empty
      // unquoted field, the empty string `""` (DuckDB would read that as NULL by default).
      await connection.run(`CREATE VIEW ${table} AS SELECT * FROM read_csv(
        ${sqlString(path.join(csvDir, table, 'part-*'))}, columns = {${columnSpec}},
        header = false, delim = ',', quote = '"', escape = '"', auto_detect = false,
        allow_quoted_nulls = false)`);
    }
    await connection.run(`COPY (${querySql}) TO ${sqlString(outFile)} (FORMAT csv, HEADER false)`);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / 1e6 };
}

// ---------------------------------------------------------------------------------------------
// Reading the results back: an RFC 4180 reader (fields may be quoted, hold doubled quotes,
// delimiters and line breaks; an unquoted empty field is NULL), then each value
// normalized by its column type so that equal values compare equal whatever the writer's form.

function* parseCsvFile(file) {
  const fd = fs.openSync(file, 'r');
  const buffer = Buffer.alloc(1 << 22);
  let rest = ''; // text after the last complete line
  let pending = null; // a record whose quoted field goes on past a line break
  try {
    for (;;) {
      const n = fs.readSync(fd, buffer, 0, buffer.length, null);
      // Bytes as latin1 characters: both results are compared byte for byte, and the only
      // characters looked at (digits, quotes, commas, line breaks) are ASCII.
      let text = rest + buffer.toString('latin1', 0, n);
      if (n === 0 && text !== '' && !text.endsWith('\n')) text += '\n';
      let at = 0;
      for (let eol = text.indexOf('\n', at); eol !== -1; eol = text.indexOf('\n', at)) {
        let line = text.slice(at, eol);
        at = eol + 1;
        if (line.endsWith('\r')) line = line.slice(0, -1);
        if (pending !== null) {
          pending += `\n${line}`;
          if (countQuotes(pending) % 2 === 1) continue;
          line = pending;
          pending = null;
        } else if (line.indexOf('"') === -1) { // the fast path: no quoting
          if (line !== '') yield line.split(',').map((v) => (v === '' ? null : v));
          continue;
        } else if (countQuotes(line) % 2 === 1) { pending = line; continue; }
        yield parseRecord(file, line);
      }
      rest = text.slice(at);
      if (n === 0) break;
    }
    if (pending !== null) throw new Error(`${file}: unterminated quoted field at the end`);
  } finally {
    fs.closeSync(fd);
  }
}

function countQuotes(s) {
  let count = 0;
  for (let i = s.indexOf('"'); i !== -1; i = s.indexOf('"', i + 1)) count++;
  return count;
}

// One record with balanced quotes: unquoted fields as they are (empty = NULL), quoted ones
// without their quotes and with doubled quotes made single.
function parseRecord(file, record) {
  const fields = [];
  let i = 0;
  for (;;) {
    if (record[i] === '"') {
      let value = '';
      let from = i + 1;
      for (;;) {
        const q = record.indexOf('"', from);
        if (q === -1) throw new Error(`${file}: unterminated quoted field in ${JSON.stringify(record)}`);
        value += record.slice(from, q);
        if (record[q + 1] === '"') { value += '"'; from = q + 2; continue; }
        i = q + 1;
        break;
      }
      fields.push(value);
      if (i === record.length) return fields;
      if (record[i] !== ',') throw new Error(`${file}: text after a closing quote in ${JSON.stringify(record)}`);
      i++;
    } else {
      const comma = record.indexOf(',', i);
      const value = record.slice(i, comma === -1 ? record.length : comma);
      fields.push(value === '' ? null : value);
      if (comma === -1) return fields;
      i = comma + 1;
    }
  }
}

function normalizer(type) {
  const t = type.toUpperCase().replace(/\s+/g, '');
  if (/^(TINYINT|SMALLINT|INT|INTEGER|BIGINT)$/.test(t)) {
    return (v) => (/^(-?[1-9]\d*|0)$/.test(v) ? v : BigInt(v.trim()).toString());
  }
  let m = /^DECIMAL\((\d+),(\d+)\)$/.exec(t);
  if (m) {
    const scale = Number(m[2]);
    return (v) => {
      const d = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(v.trim());
      if (!d) throw new Error(`not a DECIMAL: '${v}'`);
      const exponent = Number(d[4] ?? 0);
      let digits = (d[2] || '0') + (d[3] ?? '');
      let shift = scale - (d[3] ?? '').length + exponent; // digits * 10^shift = value * 10^scale
      if (shift >= 0) digits += '0'.repeat(shift);
      else {
        if (!/^0*$/.test(digits.slice(shift))) throw new Error(`DECIMAL '${v}' has more than ${scale} fraction digits`);
        digits = digits.slice(0, shift) || '0';
      }
      const unscaled = BigInt(d[1] === '-' ? `-${digits}` : digits);
      const sign = unscaled < 0n ? '-' : '';
      const abs = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
      return scale === 0 ? sign + abs : `${sign}${abs.slice(0, -scale)}.${abs.slice(-scale)}`;
    };
  }
  m = /^TIMESTAMP(?:\((\d)\))?$/.exec(t);
  if (m) {
    const precision = Number(m[1] ?? 6);
    const full = 19 + (precision > 0 ? precision + 1 : 0); // `yyyy-MM-dd HH:mm:ss.fff`
    return (v) => {
      if (v.length === full && v[10] === ' ') return v;
      const ts = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))?$/.exec(v.trim());
      if (!ts) throw new Error(`not a TIMESTAMP: '${v}'`);
      if (precision === 0) return `${ts[1]} ${ts[2]}`;
      return `${ts[1]} ${ts[2]}.${(ts[3] ?? '').padEnd(precision, '0').slice(0, precision)}`;
    };
  }
  if (/^(STRING|VARCHAR(\(\d+\))?|CHAR\(\d+\))$/.test(t)) return (v) => v;
  throw new Error(`no comparison for the column type ${type}`);
}

// The column types of the query's result: those of the eddy sink table (`CREATE TABLE <q>_out`).
function resultColumns(query) {
  const text = fs.readFileSync(path.join(sqlDir, `${query}.sql`), 'utf8').replace(/--.*$/gm, '');
  const m = /CREATE\s+TABLE\s+\w+\s*\(/i.exec(text);
  if (!m) throw new Error(`sql/${query}.sql has no CREATE TABLE for its result`);
  let depth = 1;
  let i = m.index + m[0].length;
  let current = '';
  const parts = [];
  for (; i < text.length && depth > 0; i++) {
    const c = text[i];
    if (c === '(') depth++;
    if (c === ')') depth--;
    if ((c === ',' && depth === 1) || depth === 0) { parts.push(current.trim()); current = ''; } else current += c;
  }
  return parts.map((p) => {
    const col = /^`?(\w+)`?\s+(.+)$/s.exec(p);
    return { name: col[1], type: col[2].trim() };
  });
}

function resultFiles(dirOrFile) {
  if (!fs.statSync(dirOrFile).isDirectory()) return [dirOrFile];
  return fs.readdirSync(dirOrFile).filter((f) => !f.startsWith('.') && !f.startsWith('_')).sort()
    .map((f) => path.join(dirOrFile, f));
}

function* normalizedRows(files, columns) {
  const normalize = columns.map((c) => normalizer(c.type));
  for (const file of files) {
    for (const fields of parseCsvFile(file)) {
      if (fields.length !== columns.length) {
        throw new Error(`${file}: a row of ${fields.length} fields, expected ${columns.length}: ${JSON.stringify(fields)}`);
      }
      yield fields.map((v, k) => (v === null ? '\\N' : normalize[k](v))).join('\t');
    }
  }
}

// A 53-bit hash of a string (cyrb53, public domain): fast enough for millions of rows.
function hash53(str) {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

// Sorts both results and compares them, as 53-bit hashes of the normalized rows (so that
// millions of rows fit; two different rows hash alike with a probability of about rows² / 2^54)
// and on a difference reads them again to print a few of the differing rows.
function compareResults(query, eddyFiles, duckdbFiles) {
  const columns = resultColumns(query);
  const digests = (files) => {
    let out = new Float64Array(1 << 16);
    let n = 0;
    for (const row of normalizedRows(files, columns)) {
      if (n === out.length) { const bigger = new Float64Array(out.length * 2); bigger.set(out); out = bigger; }
      out[n++] = hash53(row);
    }
    return out.subarray(0, n).sort();
  };
  const a = digests(eddyFiles);
  const b = digests(duckdbFiles);
  const onlyA = new Map();
  const onlyB = new Map();
  let i = 0;
  let j = 0;
  const bump = (map, k) => map.set(k, (map.get(k) ?? 0) + 1);
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] < b[j])) bump(onlyA, a[i++]);
    else if (i >= a.length || b[j] < a[i]) bump(onlyB, b[j++]);
    else { i++; j++; }
  }
  const result = { rows: a.length, duckdbRows: b.length, equal: onlyA.size === 0 && onlyB.size === 0, examples: [] };
  if (!result.equal) {
    const show = (files, only, who) => {
      let shown = 0;
      for (const row of normalizedRows(files, columns)) {
        if (shown >= 5) break;
        if (only.has(hash53(row))) {
          result.examples.push(`    only in ${who}: ${row.replaceAll('\t', ' | ')}`);
          shown++;
        }
      }
    };
    show(eddyFiles, onlyA, 'eddy  ');
    show(duckdbFiles, onlyB, 'duckdb');
    const count = (m) => [...m.values()].reduce((s, n) => s + n, 0);
    result.summary = `${count(onlyA)} row(s) only in eddy's result, ${count(onlyB)} only in DuckDB's ` +
      `(eddy ${a.length} rows, DuckDB ${b.length}); columns: ${columns.map((c) => c.name).join(' | ')}`;
  }
  return result;
}

// ---------------------------------------------------------------------------------------------

function duSize(dir) {
  let bytes = 0;
  let files = 0;
  for (const f of resultFiles(dir)) { bytes += fs.statSync(f).size; files++; }
  return { bytes, files };
}

function describeMachine(eddyBinary) {
  const cpus = os.cpus();
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['-C', repoRoot, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch { /* not a checkout */ }
  // The checkout's HEAD need not be what the binary was built from: its time says when it was.
  const built = fs.statSync(eddyBinary).mtime.toISOString().replace(/\.\d+Z$/, 'Z');
  return `${cpus.length} cores (${cpus[0]?.model ?? '?'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
    `load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; checkout at ${commit}, eddy binary built ${built}`;
}

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(e.message);
    process.exit(2);
  }
  if (!fs.existsSync(opts.eddy)) {
    console.error(`no eddy binary at ${opts.eddy} (build the target eddy_command, then pass --eddy or set EDDY_BIN)`);
    process.exit(2);
  }
  let duckdb;
  try {
    duckdb = await import('@duckdb/node-api');
  } catch (e) {
    console.error(`cannot load @duckdb/node-api (run 'npm install' in ${here}): ${e.message}`);
    process.exit(2);
  }
  const probe = await duckdb.DuckDBInstance.create(':memory:');
  const probeConnection = await probe.connect();
  const duckdbVersion = (await probeConnection.runAndReadAll('SELECT version()')).getRows()[0][0];
  probeConnection.closeSync();
  probe.closeSync();

  console.log(`machine: ${describeMachine(opts.eddy)}`);
  console.log(`eddy: ${opts.eddy}, BATCH, parallelism.default ${opts.parallelism}; DuckDB ${duckdbVersion} (node-api), ` +
    `threads ${opts.threads}, preserve_insertion_order ${opts.duckdbPreserveOrder}`);
  console.log(`events: ${opts.events.toLocaleString('en-US')} at first-event.rate ${opts.rate.toLocaleString('en-US')}; work dir ${opts.workDir}`);

  // 1. The export.
  const csvDir = path.join(opts.workDir, 'csv');
  const marker = path.join(csvDir, '_export.json');
  const exportKey = JSON.stringify({ events: opts.events, rate: opts.rate });
  if (opts.reuseExport && fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === exportKey) {
    console.log(`export: reusing ${csvDir}`);
  } else {
    fs.rmSync(csvDir, { recursive: true, force: true });
    fs.mkdirSync(csvDir, { recursive: true });
    const r = await runEddy(opts, ['sql', '-D', `parallelism.default=${opts.exportParallelism}`, '-i', path.join(repoRoot, 'bench', 'nexmark', 'ddl.sql'), '-f', path.join(sqlDir, 'export.sql')], {
      NEXMARK_EVENTS_NUM: String(opts.events), NEXMARK_FIRST_EVENT_RATE: String(opts.rate), NEXMARK_CSV_DIR: csvDir,
    });
    if (r.code !== 0) {
      console.error(`export failed (exit status ${r.code}):\n${r.stdout}${r.stderr}`);
      process.exit(1);
    }
    fs.writeFileSync(marker, exportKey);
    console.log(`export: ${r.wall.toFixed(2)} s wall, ${r.cpu.toFixed(2)} CPU s (eddy sql -i ../nexmark/ddl.sql -f sql/export.sql, parallelism ${opts.exportParallelism})`);
  }
  for (const table of Object.keys(TABLE_COLUMNS)) {
    const { bytes, files } = duSize(path.join(csvDir, table));
    console.log(`  ${table}: ${files} file(s), ${(bytes / 2 ** 20).toFixed(1)} MiB`);
  }

  // The fixed cost of an eddy run: process start and the DDL of tables.sql, no job.
  const emptyScript = path.join(opts.workDir, 'empty.sql');
  fs.writeFileSync(emptyScript, "SET 'execution.runtime-mode' = 'batch';\n");
  const startup = await runEddy(opts, ['sql', '-i', path.join(sqlDir, 'tables.sql'), '-f', emptyScript], { NEXMARK_CSV_DIR: csvDir });
  console.log(`eddy start-up (process, tables.sql, no job): ${startup.wall.toFixed(3)} s`);
  console.log('both timings include reading and parsing the CSV files (DuckDB: read_csv views, nothing loaded ' +
    'before the clock starts) and writing the result as CSV');
  console.log('');

  // 2. The queries.
  const results = [];
  let failed = false;
  for (const query of opts.queries) {
    const eddyOut = path.join(opts.workDir, 'out', 'eddy', query);
    const duckdbOut = path.join(opts.workDir, 'out', 'duckdb', `${query}.csv`);
    fs.mkdirSync(path.dirname(duckdbOut), { recursive: true });
    let eddyBest = null;
    let duckdbBest = null;
    let eddyError = null;
    let duckdbError = null;
    for (let run = 0; run < opts.repeat; run++) {
      if (!eddyError) {
        fs.rmSync(eddyOut, { recursive: true, force: true });
        const r = await runEddy(opts, ['sql', '-D', `parallelism.default=${opts.parallelism}`,
          '-i', path.join(sqlDir, 'tables.sql'), '-f', path.join(sqlDir, `${query}.sql`)],
        { NEXMARK_CSV_DIR: csvDir, NEXMARK_OUT_DIR: eddyOut });
        if (r.code !== 0) eddyError = `exit status ${r.code}: ${(r.stderr || r.stdout).trim()}`;
        else if (!eddyBest || r.wall < eddyBest.wall) eddyBest = r;
      }
      if (!duckdbError) {
        fs.rmSync(duckdbOut, { force: true });
        try {
          const r = await runDuckdb(opts, duckdb, query, csvDir, duckdbOut);
          if (!duckdbBest || r.wall < duckdbBest.wall) duckdbBest = r;
        } catch (e) {
          duckdbError = e.message;
        }
      }
    }
    const row = { query, eddy: eddyBest, duckdb: duckdbBest };
    if (eddyError) console.log(`${query}: eddy failed: ${eddyError}`);
    if (duckdbError) console.log(`${query}: DuckDB failed: ${duckdbError}`);
    if (eddyError || duckdbError) {
      failed = true;
    } else {
      // eddy's sink writes no file when the result is empty.
      const eddyFiles = fs.existsSync(eddyOut) ? resultFiles(eddyOut) : [];
      const cmp = compareResults(query, eddyFiles, [duckdbOut]);
      row.rows = cmp.rows;
      row.equal = cmp.equal;
      if (!cmp.equal) {
        failed = true;
        console.log(`${query}: RESULTS DIFFER: ${cmp.summary}`);
        for (const line of cmp.examples) console.log(line);
        console.log(`    (kept: ${eddyOut} and ${duckdbOut})`);
      } else if (!opts.keep) {
        fs.rmSync(eddyOut, { recursive: true, force: true });
        fs.rmSync(duckdbOut, { force: true });
      }
    }
    results.push(row);
    console.log(formatProgress(row));
  }

  // 3. The table.
  console.log('');
  printTable(opts, results);
  if (failed) {
    console.log('\nFAILED: see the lines above (a query that failed, or results that differ)');
    process.exit(1);
  }
}

const fmt = (x, digits = 2) => (x == null || Number.isNaN(x) ? '–' : x.toFixed(digits));

function formatProgress(r) {
  return `${r.query}: eddy ${fmt(r.eddy?.wall)} s, DuckDB ${fmt(r.duckdb?.wall)} s, ` +
    `${r.rows ?? '?'} rows, ${r.equal === undefined ? 'not compared' : r.equal ? 'same result' : 'DIFFERENT'}`;
}

function printTable(opts, results) {
  const header = ['query', 'result rows', 'same', 'eddy s', 'duckdb s', 'ratio eddy/duckdb', 'eddy CPU s', 'duckdb CPU s'];
  const rows = results.map((r) => [
    r.query,
    r.rows == null ? '–' : r.rows.toLocaleString('en-US'),
    r.equal === undefined ? '–' : r.equal ? 'yes' : 'NO',
    fmt(r.eddy?.wall), fmt(r.duckdb?.wall),
    r.eddy && r.duckdb ? fmt(r.eddy.wall / r.duckdb.wall) : '–',
    fmt(r.eddy?.cpu), fmt(r.duckdb?.cpu),
  ]);
  if (opts.markdown) {
    console.log(`| ${header.join(' | ')} |`);
    console.log(`|${header.map((_, k) => (k === 0 || k === 2 ? '---' : '---:')).join('|')}|`);
    for (const r of rows) console.log(`| ${r.join(' | ')} |`);
    return;
  }
  const widths = header.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k].length)));
  const line = (cells) => cells.map((c, k) => (k === 0 ? c.padEnd(widths[k]) : c.padStart(widths[k]))).join('  ');
  console.log(line(header));
  for (const r of rows) console.log(line(r));
}

// Run as a program; imported (a check of the parser), only the helpers below are used.
export { parseCsvFile, normalizer, resultColumns, compareResults };
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
