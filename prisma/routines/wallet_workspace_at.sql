-- Applied by scripts/db/migrate.ts after the migrations (CREATE OR REPLACE). Depends on wallet_assignments and
-- bitcoin_addresses.
-- The workspace whose wallet an address was at a moment (lib/wallets/ownership/claim.ts): among the assignments
-- open at `at`, a holder that proved control with a signed message comes first, then the earliest. NULL when it
-- was no workspace wallet. An assignment counts from 5 minutes before it was made: block timestamps are whole
-- seconds and may lag the wall clock (a slot start, a miner clock), so a payment sent right after a wallet was
-- saved may carry an earlier block time. That grace only fills time when the address had no holder: a holder
-- assigned by `at` comes before one inside its grace.
-- A Bitcoin wallet is a key, not an address: an address derived from it for an invoice (bitcoin_addresses) is the
-- wallet of that invoice's workspace from then on (the key is the merchant's, whatever the invoice's state).
CREATE OR REPLACE FUNCTION wallet_workspace_at(p_network text, p_address text, p_at timestamptz) RETURNS text
LANGUAGE sql STABLE AS $fn$
  SELECT COALESCE(
    (SELECT workspace_id FROM wallet_assignments
      WHERE network = p_network AND address_key = p_address
        AND valid_from - interval '5 minutes' <= p_at AND (valid_to IS NULL OR valid_to > p_at)
      ORDER BY (valid_from > p_at), (verified_at IS NULL), valid_from, id
      LIMIT 1),
    (SELECT workspace_id FROM bitcoin_addresses WHERE network = p_network AND address = p_address))
$fn$;
