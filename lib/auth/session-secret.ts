import { env } from '../env';
import { localSecret } from '../local-secret';

/**
 * The secret that signs and encrypts portal session cookies: NEXTAUTH_SECRET, or one generated once into
 * .data/auth-secret (lib/local-secret.ts).
 */
export function authSecret(): string {
  return localSecret('auth-secret', env().NEXTAUTH_SECRET);
}
