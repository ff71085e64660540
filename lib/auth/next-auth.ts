import type { NextAuthOptions, Session } from 'next-auth';
import type { JWT } from 'next-auth/jwt';
import CredentialsProvider from 'next-auth/providers/credentials';
import GitHubProvider from 'next-auth/providers/github';
import { cookies } from 'next/headers';
import { githubOAuth, publicUrl } from '../env';
import { clientAddress } from '../http/client-address';
import { verifyCredentials } from './credentials';
import { LINK_INTENT_COOKIE, resolveOAuthSignIn } from './oauth';
import { authSecret } from './session-secret';
import { db } from '../db';
import { createSession, revokeSession, SESSION_MAX_AGE_SECONDS, sessionState } from './sessions';

// The public origin comes from configuration only. next-auth builds its redirects and callback URLs from
// NEXTAUTH_URL; without it (and with AUTH_TRUST_HOST) it would trust X-Forwarded-Host, so a forged header
// could turn the sign-in redirect into http://evil.example. NEXTAUTH_URL is always derived from PUBLIC_URL.
process.env.NEXTAUTH_URL = publicUrl();
delete process.env.AUTH_TRUST_HOST;

/** The error string the sign-in form receives when throttled (anything else means "invalid email or password"). */
export const THROTTLED_ERROR = 'throttled';
/** Right password, two-factor on: the form shows the code field (CODE_REQUIRED) or says the code was wrong. */
export const CODE_REQUIRED_ERROR = 'code_required';
export const CODE_INVALID_ERROR = 'code_invalid';
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';

function headerValue(headers: Record<string, unknown> | undefined, name: string): string | undefined {
  const value = headers?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** The link intent cookie of the OAuth callback request, if any (none outside a request, e.g. in tests). */
async function linkIntentFromCookie(): Promise<string | null> {
  try {
    return (await cookies()).get(LINK_INTENT_COOKIE)?.value ?? null;
  } catch {
    return null;
  }
}

function providers(): NextAuthOptions['providers'] {
  const list: NextAuthOptions['providers'] = [
    CredentialsProvider({
      id: 'credentials',
      name: 'Email and password',
      credentials: {
        email: { label: 'Email', type: 'email' },
        password: { label: 'Password', type: 'password' },
        code: { label: 'Authentication code', type: 'text' },
      },
      async authorize(credentials, req) {
        const address = clientAddress(headerValue(req?.headers, 'x-forwarded-for'));
        const result = await verifyCredentials(
          credentials?.email ?? '',
          credentials?.password ?? '',
          address,
          credentials?.code ?? '',
        );
        if (result.outcome === 'throttled') throw new Error(THROTTLED_ERROR);
        if (result.outcome === 'code_required') throw new Error(CODE_REQUIRED_ERROR);
        if (result.outcome === 'code_invalid') throw new Error(CODE_INVALID_ERROR);
        if (result.outcome === 'invalid') return null;
        // The sign-in's address (and second factor) travel to the jwt callback, which records the sign-in (lib/audit).
        return { id: result.user.id, email: result.user.email, signInIp: address, secondFactor: result.secondFactor };
      },
    }),
  ];
  const github = githubOAuth();
  if (github) {
    list.push(GitHubProvider(github));
  }
  return list;
}

let cached: NextAuthOptions | undefined;

/** next-auth options, built on first use (the secret may be generated on disk, never at build time). */
export function authOptions(): NextAuthOptions {
  cached ??= {
    secret: authSecret(),
    session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
    // From configuration, never from X-Forwarded-Proto: https PUBLIC_URL → Secure cookies with
    // __Secure-/__Host- names (next-auth's own naming when this is true).
    useSecureCookies: publicUrl().startsWith('https:'),
    pages: { signIn: '/signin', error: '/signin' },
    providers: providers(),
    callbacks: {
      // Runs on sign-in (user set) and on EVERY session read: the server-side session row decides.
      async jwt({ token, user, account, profile }): Promise<JWT> {
        if (user) {
          const signInIp = 'signInIp' in user && typeof user.signInIp === 'string' ? user.signInIp : null;
          if (account?.provider === 'credentials') {
            const secondFactor =
              'secondFactor' in user && (user.secondFactor === 'totp' || user.secondFactor === 'recovery_code')
                ? user.secondFactor
                : null;
            const session = await createSession(user.id, new Date(), {
              email: user.email ?? null,
              ip: signInIp,
              secondFactor,
            });
            return { uid: user.id, sid: session.id, email: user.email ?? undefined };
          }
          if (!account?.provider || !account.providerAccountId) return { revoked: true };
          const login = profile && 'login' in profile && typeof profile.login === 'string' ? profile.login : null;
          const resolved = await resolveOAuthSignIn(
            {
              provider: account.provider,
              providerAccountId: account.providerAccountId,
              email: user.email,
              name: login ?? user.name,
            },
            await linkIntentFromCookie(),
          );
          if ('refused' in resolved) return { revoked: true };
          const email = user.email ?? login ?? undefined;
          // "Connect GitHub" came from a stepped-up session of this user: keep it, sign nobody in anew.
          const owner = await db().user.findUnique({
            where: { id: resolved.userId },
            select: { totpEnabledAt: true, email: true },
          });
          if (resolved.sessionId && (await sessionState(resolved.sessionId, resolved.userId)) === 'live') {
            return { uid: resolved.userId, sid: resolved.sessionId, email: owner?.email ?? email };
          }
          // Two-factor sign-in applies to GitHub sign-ins too: the session waits for the code (sign-in page).
          const session = await createSession(resolved.userId, new Date(), {
            email: email ?? null,
            ip: signInIp,
            provider: account.provider,
            secondFactorPending: Boolean(owner?.totpEnabledAt),
          });
          return { uid: resolved.userId, sid: session.id, email };
        }
        if (!token.uid || !token.sid || token.revoked) return { revoked: true };
        const state = await sessionState(token.sid, token.uid);
        if (state === 'ended') return { revoked: true };
        return { ...token, secondFactorPending: state === 'second_factor_pending' ? true : undefined };
      },
      session({ session, token }): Session {
        if (!token.uid || !token.sid || token.revoked) return { expires: session.expires };
        // Waiting for the two-factor code: no user (the portal treats it as signed out), only what the sign-in page needs.
        if (token.secondFactorPending)
          return {
            expires: session.expires,
            secondFactorPending: { sid: token.sid, userId: token.uid, email: token.email ?? null },
          };
        return { expires: session.expires, sid: token.sid, user: { id: token.uid, email: token.email ?? '' } };
      },
    },
    events: {
      async signOut({ token }) {
        if (token?.sid) await revokeSession(token.sid);
      },
    },
  };
  return cached;
}
