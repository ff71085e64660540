/** What the one-time display of a webhook signing secret says, after create and after roll alike. */
export const SIGNING_SECRET_WARNING =
  'This is the only time the secret is shown. Your receiver verifies each delivery with it (see the webhooks guide).';
