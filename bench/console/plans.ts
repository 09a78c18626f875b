// The plans PostgreSQL chose for what a page ran, read from auto_explain's JSON log (the
// benchmark's cluster preloads auto_explain with logging off and the server log as jsonlog):
// turned on for one request, every statement's EXPLAIN (ANALYZE, BUFFERS) lands in the log.
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';

// auto_explain.log_min_duration stays at its default (-1, off) here: a setting given on the
// command line would override the ALTER SYSTEM that turns it on for one request.
export const AUTO_EXPLAIN_SETTINGS = {
  shared_preload_libraries: 'auto_explain',
  'auto_explain.log_analyze': 'on',
  'auto_explain.log_buffers': 'on',
  'auto_explain.log_format': 'json',
  logging_collector: 'on',
  log_destination: 'jsonlog',
  log_filename: 'server.log',
  log_rotation_age: '0',
  log_rotation_size: '0',
};

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Scan Direction'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Sort Method'?: string;
  'Sort Space Used'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

export interface StatementPlan {
  durationMs: number;
  queryText: string;
  plan: PlanNode;
}

/** Tables whose size grows with traffic: a sequential scan or a large sort over these is a defect. */
const LARGE_TABLES = new Set(['query_records', 'query_record_identifiers', 'ledger_entries', 'audit_log', 'query_hourly_rollups_by_integration', 'refusal_rollups_by_integration', 'bulk_jobs', 'bulk_job_items']);

export class PlanRecorder {
  private readonly logFile: string;

  constructor(
    private readonly adminUrl: string,
    clusterDirectory: string,
  ) {
    this.logFile = path.join(clusterDirectory, 'data', 'log', 'server.json');
  }

  /** Runs `action` with auto_explain logging every statement, and returns the plans it logged. */
  async capture(action: () => Promise<void>): Promise<StatementPlan[]> {
    const admin = postgres(this.adminUrl, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe('alter system set auto_explain.log_min_duration = 0');
      await admin.unsafe('select pg_reload_conf()');
      // Backends read the new setting before their next statement; give the signal time to land.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const offset = fs.existsSync(this.logFile) ? fs.statSync(this.logFile).size : 0;
      await action();
      await admin.unsafe('alter system set auto_explain.log_min_duration = -1');
      await admin.unsafe('select pg_reload_conf()');
      await new Promise((resolve) => setTimeout(resolve, 300));
      return this.readPlans(offset);
    } finally {
      await admin.end({ timeout: 5 });
    }
  }

  private readPlans(offset: number): StatementPlan[] {
    const text = fs.readFileSync(this.logFile).subarray(offset).toString('utf8');
    const plans: StatementPlan[] = [];
    for (const line of text.split('\n')) {
      if (!line.includes('plan:')) continue;
      const entry = JSON.parse(line) as { message?: string };
      const match = /^duration: ([\d.]+) ms\s+plan:\n([\s\S]*)$/.exec(entry.message ?? '');
      if (!match) continue;
      const explained = JSON.parse(match[2]!) as { 'Query Text': string; Plan: PlanNode };
      plans.push({ durationMs: Number(match[1]), queryText: explained['Query Text'], plan: explained.Plan });
    }
    return plans;
  }
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/** One line per statement: its time, how each table was read, and any sort or full scan. */
export function summarizePlan(statement: StatementPlan): { line: string; defects: string[] } {
  const all = nodes(statement.plan);
  const reads: string[] = [];
  const defects: string[] = [];
  for (const node of all) {
    const rows = (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1);
    const removed = (node['Rows Removed by Filter'] ?? 0) * (node['Actual Loops'] ?? 1);
    if (node['Index Name']) {
      const backward = node['Scan Direction'] === 'Backward' ? ' backward' : '';
      reads.push(`${node['Index Name']}${backward} (${rows} rows${removed ? `, ${removed} filtered out` : ''})`);
    } else if (node['Relation Name']) {
      reads.push(`${node['Node Type']} ${node['Relation Name']} (${rows} rows${removed ? `, ${removed} filtered out` : ''})`);
      if (node['Node Type'] === 'Seq Scan' && LARGE_TABLES.has(node['Relation Name'])) defects.push(`sequential scan of ${node['Relation Name']}`);
    }
    if (node['Node Type'] === 'Sort' || node['Node Type'] === 'Incremental Sort') {
      const sorted = node['Actual Rows'] ?? 0;
      reads.push(`${node['Node Type']} ${node['Sort Method'] ?? ''} ${sorted} rows`.replace(/\s+/g, ' '));
      if (sorted > 1_000) defects.push(`sort of ${sorted} rows`);
    }
  }
  const blocks = (statement.plan['Shared Hit Blocks'] ?? 0) + (statement.plan['Shared Read Blocks'] ?? 0);
  return { line: `${statement.durationMs.toFixed(2).padStart(8)} ms  ${blocks} blocks  ${reads.join('; ')}`, defects };
}
