import postgres from 'postgres';
import { durableSql, runStatement } from './db';

/**
 * Group commit for the API's invoice creates: statements queued during one turn of the event loop run as ONE
 * durable transaction, BEGIN to COMMIT pipelined on one connection, so they share one WAL flush and one round
 * trip.
 *
 * Why: each durable commit waits for its own flush, and under load the creates rarely overlapped enough for
 * PostgreSQL to flush several at once. Measured on POST /v1/invoices (docs/benchmarks.md): WAL
 * flushes per create 0.52 → 0.26, PostgreSQL CPU per create 0.47–0.49 → 0.37–0.41 ms. Sending BEGIN, the
 * statements and COMMIT at once, not sql.begin's three round trips (each a turn of a busy event loop), raised
 * (e)'s ratio from 0.67 to 0.75–0.77.
 *
 * What a request sees does not change: its answer comes after the durable commit that contains its statement,
 * and its statement is still one statement (an invoice and its event are written together or not at all).
 *
 * A transaction is all-or-nothing, so one failing statement would fail the others. When PostgreSQL reports an
 * error for a group, the group was rolled back: each statement then runs again alone, and only one that fails
 * alone reports its error (a create chose its ids once, so running it again after a rollback is safe). When
 * the connection is lost instead, nobody knows whether the commit happened: every statement of the group
 * gets that error (a 503), as a single statement would.
 *
 * Only for statements that are safe to run again after a rollback: the creates. Transitions (cancel, pay) stay
 * single statements.
 *
 * Test-mode creates go further: the ones queued in one turn are ONE statement (`runBatchedInGroupCommit`), one
 * row each, because under load a group's creates spent most of their time waiting for PostgreSQL to run their
 * statements one by one (docs/benchmarks.md, fifth round: PostgreSQL CPU per create 0.32–0.34 → 0.25–0.27 ms, (e)
 * 0.71–0.75 → 0.76–0.83 in quick runs). Live creates stay one statement each: each searches its own pay amount.
 */
interface Queued {
  text: string;
  values: readonly unknown[];
  resolve: (rows: unknown[]) => void;
  reject: (error: unknown) => void;
  /** A batched statement's members, each as a statement of its own: what runs again when the batch fails. */
  split?: () => Queued[];
}

/**
 * Rows of one kind written by ONE statement per group: `build` makes the statement for the inputs queued in one
 * turn, in their order, and `owner` names the input a result row belongs to (by its `key`); an input with no
 * row gets none. Run again alone, an input gets the same statement with one input (one prepared statement).
 * PostgreSQL then pays its per-statement work (bind, executor start, the events trigger, a reply per Sync) once
 * per group, not once per create.
 */
export interface BatchedStatement<Input, Row> {
  build(inputs: readonly Input[]): { text: string; values: unknown[] };
  key(input: Input): string;
  owner(row: Row): string;
}

/** A larger group is split: a transaction holds its row locks until its last statement is done. */
const MAX_GROUP = 32;
/** Rows per batched statement. */
const MAX_BATCH = 64;

interface Member {
  input: unknown;
  resolve: (rows: unknown[]) => void;
  reject: (error: unknown) => void;
}

let queue: Queued[] = [];
let batches = new Map<BatchedStatement<unknown, unknown>, Member[]>();
let scheduled = false;

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  // At the end of this turn of the event loop: every create of the turn joins the group. Measured against
  // grouping per I/O callback (process.nextTick, smaller groups sent a turn sooner): 0.75–0.77 against
  // 0.71–0.72 of the baseline, in two A/B pairs; the larger group costs the server less per create.
  setImmediate(flush);
}

export function runInGroupCommit<Row extends object>(text: string, values: readonly unknown[]): Promise<Row[]> {
  return new Promise<Row[]>((resolve, reject) => {
    queue.push({ text, values, resolve: resolve as (rows: unknown[]) => void, reject });
    schedule();
  });
}

/** Queues `input` for `statement`'s next batch; resolves with its own rows once the group has committed. */
export function runBatchedInGroupCommit<Input, Row extends object>(
  statement: BatchedStatement<Input, Row>,
  input: Input,
): Promise<Row[]> {
  return new Promise<Row[]>((resolve, reject) => {
    const key = statement as BatchedStatement<unknown, unknown>;
    let members = batches.get(key);
    if (!members) batches.set(key, (members = []));
    members.push({ input, resolve: resolve as (rows: unknown[]) => void, reject });
    schedule();
  });
}

/** One statement for `members` (in their order), answering each with its own rows. */
function batchedStatement(statement: BatchedStatement<unknown, unknown>, members: Member[]): Queued {
  const { text, values } = statement.build(members.map((member) => member.input));
  const queued: Queued = {
    text,
    values,
    resolve: (rows) => {
      const byOwner = new Map<string, unknown[]>();
      for (const row of rows) {
        const owner = statement.owner(row);
        const owned = byOwner.get(owner);
        if (owned) owned.push(row);
        else byOwner.set(owner, [row]);
      }
      members.forEach((member) => member.resolve(byOwner.get(statement.key(member.input)) ?? []));
    },
    reject: (error) => members.forEach((member) => member.reject(error)),
  };
  // Built only when needed: the single-row statements are what runs after a refused batch.
  if (members.length > 1) queued.split = () => members.map((member) => batchedStatement(statement, [member]));
  return queued;
}

function flush(): void {
  scheduled = false;
  const queued = queue;
  queue = [];
  for (const [statement, members] of batches) {
    for (let start = 0; start < members.length; start += MAX_BATCH)
      queued.push(batchedStatement(statement, members.slice(start, start + MAX_BATCH)));
  }
  batches = new Map();
  for (let start = 0; start < queued.length; start += MAX_GROUP) {
    const group = queued.slice(start, start + MAX_GROUP);
    if (group.length === 1) runAlone(group[0]!);
    else void runGroup(group);
  }
}

/** One statement, committed on its own. */
function runAlone(one: Queued): void {
  runStatement(durableSql(), one.text, one.values).then(one.resolve, (error: unknown) => settleFailed(one, error));
}

/** Runs a statement again on its own; a batch runs again as its members, each alone. */
function runEachAlone(one: Queued): void {
  (one.split?.() ?? [one]).forEach(runAlone);
}

/** A statement failed on its own: a batch PostgreSQL refused runs again as its members, each alone. */
function settleFailed(one: Queued, error: unknown): void {
  if (one.split && error instanceof postgres.PostgresError) runEachAlone(one);
  else one.reject(error);
}

/**
 * BEGIN, the statements and COMMIT go out together on one reserved connection (one round trip, not three as
 * with sql.begin). Each is its own protocol message with its own Sync: after a failing statement PostgreSQL
 * answers the rest of the group "transaction aborted" and turns the COMMIT into a ROLLBACK.
 */
async function runGroup(group: Queued[]): Promise<void> {
  let connection: postgres.ReservedSql;
  try {
    connection = await durableSql().reserve();
  } catch (error) {
    group.forEach((one) => one.reject(error));
    return;
  }
  // postgres.js sends a query when it is first executed: in this order.
  const begin = connection.unsafe('BEGIN').execute();
  const statements = group.map((one) => runStatement(connection, one.text, one.values).execute());
  const commit = connection.unsafe('COMMIT').execute();
  const [began, ...settled] = await Promise.allSettled([begin, ...statements, commit]);
  connection.release();
  const committed = settled.pop()!;
  const errors = [...settled, committed].flatMap((outcome) =>
    outcome.status === 'rejected' ? [outcome.reason as unknown] : [],
  );
  if (began.status === 'rejected') {
    // No transaction: each statement ran (or failed) on its own; its own outcome is the answer.
    settled.forEach((outcome, i) =>
      outcome.status === 'fulfilled' ? group[i]!.resolve(outcome.value) : settleFailed(group[i]!, outcome.reason),
    );
  } else if (errors.length === 0) {
    settled.forEach((outcome, i) => group[i]!.resolve((outcome as PromiseFulfilledResult<unknown[]>).value));
  } else if (errors.every((error) => error instanceof postgres.PostgresError)) {
    // PostgreSQL refused a statement or the COMMIT: the transaction was rolled back; each runs again alone
    // (a batch as its members).
    group.forEach(runEachAlone);
  } else {
    // The connection was lost: whether the COMMIT happened is unknown, so nobody is told it succeeded.
    const lost = errors.find((error) => !(error instanceof postgres.PostgresError));
    group.forEach((one) => one.reject(lost));
  }
}
