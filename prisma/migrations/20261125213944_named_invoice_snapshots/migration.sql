-- Invoice event snapshots become named, versioned JSON objects (lib/invoices/snapshot.ts, version 1) instead of
-- positional arrays. Existing snapshots are converted here, with the defaults the positional reader applied to
-- rows older than a column: pay_amount = amount, amount_received = amount when paid else 0, no redirect_url,
-- payment_exception, payments or pay_token.

-- An invoice's payments as named objects, oldest first (called with the outer row's id, so the snapshot's
-- column list needs no table alias). SQL-standard body (no dollar quotes).
CREATE OR REPLACE FUNCTION invoice_payments_json(invoice_id TEXT) RETURNS JSON LANGUAGE sql STABLE
RETURN (SELECT COALESCE(json_agg(json_build_object('id', pm.id, 'tx_hash', pm.tx_hash, 'log_index', pm.log_index,
          'network', pm.network, 'currency', pm.currency, 'amount', pm.amount::text, 'from_address', pm.from_address,
          'block_number', pm.block_number::text, 'status', pm.status, 'confirmations', pm.confirmations,
          'detected_at', pm.detected_at, 'confirmed_at', pm.confirmed_at)
          ORDER BY pm.detected_at, pm.id), '[]'::json)
        FROM payments pm WHERE pm.invoice_id = invoice_payments_json.invoice_id);

UPDATE events SET snapshot = jsonb_build_object(
    'version', 1,
    'id', snapshot->0, 'environment', snapshot->1, 'status', snapshot->2, 'amount', snapshot->3,
    'currency', snapshot->4, 'network', snapshot->5, 'pay_address', snapshot->6, 'description', snapshot->7,
    'metadata', snapshot->8, 'order_id', snapshot->9, 'created_at', snapshot->10, 'expires_at', snapshot->11,
    'paid_at', snapshot->12, 'cancelled_at', snapshot->13, 'payment_tx_hash', snapshot->14,
    'payment_amount', snapshot->15, 'payment_simulated', snapshot->16,
    'pay_amount', COALESCE(NULLIF(snapshot->17, 'null'::jsonb), snapshot->3),
    'redirect_url', COALESCE(snapshot->18, 'null'::jsonb),
    'amount_received', COALESCE(NULLIF(snapshot->19, 'null'::jsonb),
                                CASE WHEN snapshot->>2 = 'paid' THEN snapshot->3 ELSE '"0"'::jsonb END),
    'payment_exception', COALESCE(snapshot->20, 'null'::jsonb),
    'payments', (SELECT COALESCE(jsonb_agg(jsonb_build_object('id', p->0, 'tx_hash', p->1, 'log_index', p->2,
                   'network', p->3, 'currency', p->4, 'amount', p->5, 'from_address', p->6, 'block_number', p->7,
                   'status', p->8, 'confirmations', p->9, 'detected_at', p->10, 'confirmed_at', p->11) ORDER BY n),
                   '[]'::jsonb)
                   FROM jsonb_array_elements(COALESCE(NULLIF(snapshot->21, 'null'::jsonb), '[]'::jsonb)) WITH ORDINALITY AS e(p, n)),
    'pay_token', COALESCE(snapshot->22, 'null'::jsonb))
 WHERE type LIKE 'invoice.%' AND jsonb_typeof(snapshot) = 'array';
