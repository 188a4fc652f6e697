import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type {
  BudgetLimit,
  ChargeOutcome,
  ChargeRepository,
  ChargeRow,
  ChargeSettlement,
  Database,
  JournalState,
  KeySpend,
  ReserveResult,
} from '../../ports/database.js';
import { parseJsonObject, toNumber } from './rows.js';
import type { ChargesTable, DatabaseSchema } from './schema.js';
import { DEFAULT_MAX_BOUND_PARAMETERS, perStatement, valuesWhere } from './statements.js';
import { writeOf } from './unit-of-work.js';

type Writer = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

const OUTCOMES: readonly ChargeOutcome[] = ['reserved', 'succeeded', 'not_charged', 'charged_no_image', 'uncertain'];
const toOutcome = (value: string): ChargeOutcome => OUTCOMES.find((outcome) => outcome === value) ?? 'uncertain';

function toJournal(text: string | null): JournalState | null {
  const value = parseJsonObject(text);
  return value === null ? null : (value as JournalState);
}

export function toChargeRow(row: Selectable<ChargesTable>): ChargeRow {
  return {
    ...row,
    journal: toJournal(row.journal),
    estimated_usd: toNumber(row.estimated_usd),
    cost_usd: toNumber(row.cost_usd),
    outcome: toOutcome(row.outcome),
  };
}

const fromChargeRow = (row: ChargeRow): Selectable<ChargesTable> => ({ ...row, journal: row.journal === null ? null : JSON.stringify(row.journal) });

/**
 * The UPDATE that ends a reserved charge, run alone, in a unit of work, or with a unit's own guard added (a batch
 * prompt's). A charge that is no longer reserved keeps what it says: settling twice changes nothing.
 */
export const settlementOf = (writer: Writer, settlement: ChargeSettlement) =>
  writer
    .updateTable('charges')
    .set({ outcome: settlement.outcome, cost_usd: settlement.cost_usd, error: settlement.error ?? null, settled_at: settlement.at })
    .where('id', '=', settlement.id)
    .where('outcome', '=', 'reserved');

/** `value` inside a LIKE pattern, matched as it is (key ids hold `_`, LIKE's any-character). */
const likeLiteral = (value: string): string => value.replace(/[!%_]/g, (char) => `!${char}`);

/**
 * The charges that count against key `keyId`'s budget: its own and those of every key it created, directly or
 * not (migration 015's creator_path). A key's budget cannot be escaped by creating keys.
 */
const keyTree = (keyId: string) =>
  sql<boolean>`key_id in (select id from api_keys where id = ${keyId} or creator_path like ${`%/${likeLiteral(keyId)}/%`} escape '!')`;

/** A millionth of a cent: float noise that must not refuse a generation that fits exactly. */
const FLOAT_NOISE_USD = 1e-9;

/** Every column of a charge, in the order the one-statement reservation inserts them. */
const CHARGE_COLUMNS = [
  'id',
  'user_id',
  'key_id',
  'image_id',
  'model',
  'provider',
  'provider_job_id',
  'journal',
  'estimated_usd',
  'cost_usd',
  'outcome',
  'error',
  'created_at',
  'settled_at',
] as const satisfies readonly (keyof ChargesTable)[];

/** Image ids per query at most (fewer on D1, which binds 100 values). */
const IDS_PER_QUERY = 500;

/** Shared by SQLite and PostgreSQL; only how a key's reservations are serialised differs. */
export function createChargeRepository(
  db: Kysely<DatabaseSchema>,
  dialect: Database['dialect'],
  options: { maxBoundParameters: number; durable?: (() => Promise<void>) | undefined } = { maxBoundParameters: DEFAULT_MAX_BOUND_PARAMETERS },
): ChargeRepository {
  // What must survive a power cut before the caller goes on: a reservation made before a paid call, and the job id a
  // provider gave it (what its invoice is reconciled against). A settlement or a stored answer's journal lost to a
  // power cut leaves the charge reserved, settled again by the run that resumes it or as uncertain by the sweep.
  const durable = options.durable ?? (() => Promise.resolve());
  const idsPerQuery = perStatement(IDS_PER_QUERY, options.maxBoundParameters, 1, 1);
  const spentSince = async (writer: Writer, keyId: string, since: string): Promise<number> => {
    const row = await writer
      .selectFrom('charges')
      .select((eb) => eb.fn.sum<number | string>('cost_usd').as('spent'))
      .where(keyTree(keyId))
      .where('created_at', '>=', since)
      .executeTakeFirst();
    return toNumber(row?.spent);
  };

  /** The first limit this estimate would pass, with what its key's tree has spent since the limit's start. */
  const firstExceeded = async (writer: Writer, estimate: number, limits: readonly BudgetLimit[]): Promise<ReserveResult | undefined> => {
    for (const limit of limits) {
      const spent = await spentSince(writer, limit.key_id, limit.since);
      // A millionth of a cent of float noise must not refuse a generation that fits exactly.
      if (spent + estimate > limit.limit_usd + FLOAT_NOISE_USD)
        return { reserved: false, key_id: limit.key_id, budget: limit.budget, limit_usd: limit.limit_usd, spent_usd: spent };
    }
    return undefined;
  };

  /**
   * SQLite (and D1, which has no interactive transactions): the budget check and the insert are one statement, an
   * INSERT of the row SELECTed only where every limit still has room, so nothing can land between them. When it
   * inserts nothing, the limit it passed is read afterwards for the refusal's message; should a settlement have
   * made room in between, it is tried once more.
   */
  const reserveInOneStatement = async (row: ChargeRow, limits: readonly BudgetLimit[]): Promise<ReserveResult> => {
    const fits = limits.map(
      (limit) =>
        sql<boolean>`(select coalesce(sum(cost_usd), 0) from charges where ${keyTree(limit.key_id)} and created_at >= ${limit.since}) + ${row.estimated_usd} <= ${limit.limit_usd + FLOAT_NOISE_USD}`,
    );
    const insert = db
      .insertInto('charges')
      .columns(CHARGE_COLUMNS)
      .expression(valuesWhere(db, CHARGE_COLUMNS, fromChargeRow(row), sql<boolean>`${sql.join(fits, sql` and `)}`));
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const result = await insert.executeTakeFirst();
      if (toNumber(result.numInsertedOrUpdatedRows) > 0) return { reserved: true };
      const exceeded = await firstExceeded(db, row.estimated_usd, limits);
      if (exceeded !== undefined) return exceeded;
    }
    throw new Error(`charge ${row.id} could not be reserved: the budget check and the spend read twice disagreed`);
  };

  const reserveRow = async (row: ChargeRow, limits: readonly BudgetLimit[]): Promise<ReserveResult> => {
    if (limits.length === 0) {
      await db.insertInto('charges').values(fromChargeRow(row)).execute();
      return { reserved: true };
    }
    if (dialect === 'sqlite') return reserveInOneStatement(row, limits);
    return db.transaction().execute(async (trx) => {
      // PostgreSQL: the row locks of every key whose budget applies make concurrent reservations under one budget,
      // from any process and any key of its tree, take turns, and each sees the ones before it (read committed
      // reads what committed before each statement). Locked in id order, so two trees never wait on each other.
      const budgetKeys = [...new Set(limits.map((limit) => limit.key_id))].sort();
      await trx.selectFrom('api_keys').select('id').where('id', 'in', budgetKeys).orderBy('id').forUpdate().execute();
      const exceeded = await firstExceeded(trx, row.estimated_usd, limits);
      if (exceeded !== undefined) return exceeded;
      await trx.insertInto('charges').values(fromChargeRow(row)).execute();
      return { reserved: true };
    });
  };

  return {
    settleWrite: (settlement) => writeOf('charges.settle', settlementOf(db, settlement)),
    async reserve(row, limits) {
      const result = await reserveRow(row, limits);
      if (result.reserved) await durable();
      return result;
    },

    async recordJournal(id, journal) {
      const jobId = journal.job?.id ?? null;
      await db
        .updateTable('charges')
        .set({ journal: JSON.stringify(journal), provider_job_id: jobId })
        .where('id', '=', id)
        .execute();
      if (jobId !== null) await durable();
    },

    settle: async (settlement) => void (await settlementOf(db, settlement).execute()),

    async settleStale({ before, withJobBefore }, at) {
      const result = await db
        .updateTable('charges')
        .set((eb) => ({
          outcome: 'uncertain',
          settled_at: at,
          error: eb.fn.coalesce('error', sql<string>`'interrupted: the process stopped while the call was in flight'`),
        }))
        .where('outcome', '=', 'reserved')
        .where((eb) => eb.or([eb.and([eb('provider_job_id', 'is', null), eb('created_at', '<', before)]), eb('created_at', '<', withJobBefore)]))
        .executeTakeFirst();
      return toNumber(result.numUpdatedRows);
    },

    async reservedImageIds(imageIds) {
      const found = new Set<string>();
      // Served by charges_image (migration 009).
      for (let start = 0; start < imageIds.length; start += idsPerQuery) {
        const chunk = imageIds.slice(start, start + idsPerQuery);
        const rows = await db.selectFrom('charges').select('image_id').distinct().where('image_id', 'in', chunk).where('outcome', '=', 'reserved').execute();
        for (const row of rows) found.add(row.image_id);
      }
      return found;
    },

    async latestForImage(userId, imageId) {
      const row = await db
        .selectFrom('charges')
        .selectAll()
        .where('image_id', '=', imageId)
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirst();
      return row === undefined ? undefined : toChargeRow(row);
    },

    async spendByKeys(keyIds, { dayStart, monthStart }) {
      const spend = new Map<string, KeySpend>();
      if (keyIds.length === 0) return spend;
      // Served by (key_id, created_at): only this month's charges of these keys are read.
      const rows = await db
        .selectFrom('charges')
        .select((eb) => [
          'key_id',
          eb.fn.sum<number | string>('cost_usd').as('month'),
          eb.fn.sum<number | string>(eb.case().when('created_at', '>=', dayStart).then(eb.ref('cost_usd')).else(0).end()).as('today'),
        ])
        .where('key_id', 'in', keyIds)
        .where('created_at', '>=', monthStart)
        .groupBy('key_id')
        .execute();
      for (const row of rows) if (row.key_id !== null) spend.set(row.key_id, { today_usd: toNumber(row.today), this_month_usd: toNumber(row.month) });
      return spend;
    },

    async buckets(userId, filter) {
      const day = sql<string>`substr(created_at, 1, 10)`;
      let query = db
        .selectFrom('charges')
        .select([day.as('day'), 'model', 'outcome', sql<number>`count(*)`.as('charges'), sql<number>`coalesce(sum(cost_usd), 0)`.as('cost_usd')])
        .where('user_id', '=', userId);
      if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
      if (filter.to !== undefined) query = query.where('created_at', '<', filter.to);
      if (filter.key_id !== undefined) query = query.where('key_id', '=', filter.key_id);
      if (filter.outcome !== undefined) query = query.where('outcome', '=', filter.outcome);
      const rows = await query.groupBy([day, 'model', 'outcome']).execute();
      return rows.map((row) => ({
        day: row.day,
        model: row.model,
        outcome: toOutcome(row.outcome),
        charges: toNumber(row.charges),
        cost_usd: toNumber(row.cost_usd),
      }));
    },

    async list(userId, filter, page) {
      let query = db.selectFrom('charges').where('user_id', '=', userId);
      if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
      if (filter.to !== undefined) query = query.where('created_at', '<', filter.to);
      if (filter.key_id !== undefined) query = query.where('key_id', '=', filter.key_id);
      if (filter.outcome !== undefined) query = query.where('outcome', '=', filter.outcome);
      const [rows, count] = await Promise.all([
        query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
        query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst(),
      ]);
      return { items: rows.map(toChargeRow), total: toNumber(count?.n) };
    },
  };
}
