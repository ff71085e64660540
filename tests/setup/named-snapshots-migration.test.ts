// The migration named_invoice_snapshots converts the positional invoice snapshots stored before it into named,
// versioned objects, with the defaults the positional reader gave rows older than a column: the events read as
// they did before.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, poolConfigFromUrl } from '../../scripts/db/migrate';
import { db } from '@/lib/db';
import { newId } from '@/lib/ids';
import { toEventResource } from '@/lib/events/serialize';
import type { EventRow } from '@/lib/events/store';
import { seedAccount } from '../support/fixtures';

const MIGRATION = path.join(MIGRATIONS_DIR, '20261125213944_named_invoice_snapshots', 'migration.sql');

/** 17 elements: an event written before settlement existed. */
const PRE_SETTLEMENT = [
  'inv_old',
  'test',
  'paid',
  '10.5',
  'USDT',
  'tron',
  'TXaddr',
  'an old one',
  { k: 'v' },
  'order-1',
  '2026-11-20T10:00:00+00:00',
  '2026-11-20T11:00:00+00:00',
  '2026-11-20T10:30:00+00:00',
  null,
  '0xsim',
  null,
  true,
];
/** 22 elements: an event written before the hosted page, with a payment. */
const WITH_PAYMENT = [
  'inv_live',
  'live',
  'paid',
  '10',
  'USDC',
  'ethereum',
  '0xwallet',
  null,
  {},
  null,
  '2026-11-21T10:00:00+00:00',
  '2026-11-21T11:00:00+00:00',
  '2026-11-21T10:20:00+00:00',
  null,
  '0xtx',
  '10.000001',
  false,
  '10.000001',
  'https://shop.example/back',
  '10.000001',
  null,
  [
    [
      'pay_1',
      '0xtx',
      3,
      'ethereum',
      'USDC',
      '10.000001',
      '0xfrom',
      '123',
      'confirmed',
      3,
      '2026-11-21T10:10:00+00:00',
      '2026-11-21T10:20:00+00:00',
    ],
  ],
];

async function runMigration(): Promise<void> {
  const client = new pg.Client(poolConfigFromUrl(process.env.DATABASE_URL ?? ''));
  await client.connect();
  try {
    await client.query(readFileSync(MIGRATION, 'utf8'));
  } finally {
    await client.end();
  }
}

async function eventRow(id: string): Promise<EventRow> {
  const row = await db().event.findUniqueOrThrow({ where: { id } });
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    environment: row.environment,
    type: row.type as EventRow['type'],
    snapshot: row.snapshot,
    createdAt: row.createdAt,
  };
}

describe('migration named_invoice_snapshots', () => {
  it('converts positional snapshots to version 1 objects that read as before', async () => {
    const { workspace } = await seedAccount();
    const ids = [newId('event'), newId('event'), newId('event')];
    const at = new Date('2026-11-22T00:00:00Z');
    await db().event.createMany({
      data: [
        {
          id: ids[0]!,
          workspaceId: workspace.id,
          environment: 'test',
          type: 'invoice.paid',
          snapshot: PRE_SETTLEMENT,
          createdAt: at,
        },
        {
          id: ids[1]!,
          workspaceId: workspace.id,
          environment: 'live',
          type: 'invoice.paid',
          snapshot: WITH_PAYMENT,
          createdAt: at,
        },
        // Not an invoice event: left alone.
        {
          id: ids[2]!,
          workspaceId: workspace.id,
          environment: 'live',
          type: 'payment.unmatched',
          snapshot: { object: 'payment', id: 'pay_x' },
          createdAt: at,
        },
      ],
    });
    await runMigration();

    const old = await eventRow(ids[0]!);
    expect(old.snapshot).toMatchObject({
      version: 1,
      id: 'inv_old',
      pay_amount: '10.5',
      amount_received: '10.5',
      payments: [],
      pay_token: null,
      redirect_url: null,
    });
    expect(toEventResource(old).data.object).toMatchObject({
      id: 'inv_old',
      status: 'paid',
      amount: '10.5',
      pay_amount: '10.5',
      amount_received: '10.5',
      payment_exception: null,
      description: 'an old one',
      metadata: { k: 'v' },
      order_id: 'order-1',
      redirect_url: null,
      hosted_url: null,
      paid_at: '2026-11-20T10:30:00.000Z',
      payment: { tx_hash: '0xsim', amount: '10.5', simulated: true },
      payments: [],
    });

    const live = await eventRow(ids[1]!);
    expect(toEventResource(live).data.object).toMatchObject({
      id: 'inv_live',
      pay_amount: '10.000001',
      amount_received: '10.000001',
      redirect_url: 'https://shop.example/back',
      hosted_url: null,
      payment: { tx_hash: '0xtx', amount: '10.000001', simulated: false },
      payments: [
        {
          id: 'pay_1',
          tx_hash: '0xtx',
          log_index: 3,
          amount: '10.000001',
          from: '0xfrom',
          block_number: 123,
          confirmations: 3,
          status: 'confirmed',
          detected_at: '2026-11-21T10:10:00.000Z',
          confirmed_at: '2026-11-21T10:20:00.000Z',
        },
      ],
    });

    expect((await eventRow(ids[2]!)).snapshot).toEqual({ object: 'payment', id: 'pay_x' });
    // Converting again changes nothing.
    await runMigration();
    expect((await eventRow(ids[1]!)).snapshot).toEqual(live.snapshot);
  });
});
