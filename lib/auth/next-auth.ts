import type { NextAuthOptions, Session } from 'next-auth';
import type { JWT } from 'next-auth/jwt';
import CredentialsProvider from 'next-auth/providers/credentials';
import GitHubProvider from 'next-auth/providers/github';
import { randomBytes } from 'node:crypto';
import { db } from '../db';
import { githubOAuth } from '../env';
import { clientAddress } from '../http/client-address';
import { createUserWithWorkspace } from '../workspaces/workspaces';
import { verifyCredentials } from './credentials';
import { authSecret } from './secret';
import { createSession, isSessionLive, revokeSession, SESSION_MAX_AGE_SECONDS } from './sessions';

// No NEXTAUTH_URL needed: trust the Host header (the app is run behind its own port or a proxy that sets it).
if (!process.env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= 'true';

/** The error string the sign-in form receives when throttled (anything else means "invalid email or password"). */
export const THROTTLED_ERROR = 'throttled';
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';

function clientIp(headers: Record<string, unknown> | undefined): string {
  const forwarded = headers?.['x-forwarded-for'];
  const first = typeof forwarded === 'string' ? forwarded.split(',')[0]?.trim() : undefined;
  const real = headers?.['x-real-ip'];
  return first || (typeof real === 'string' ? real : '') || 'unknown';
}

function firstHeader(value: unknown): string | null {
  if (typeof value === 'string') return value;
  return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : null;
}

/** An OAuth sign-in maps to the portal user with that email, created (with its workspace) on first sign-in. */
async function userIdForOAuthEmail(email: string | null | undefined): Promise<string | null> {
  if (!email) return null;
  const normalized = email.trim().toLowerCase();
  const existing = await db().user.findUnique({ where: { email: normalized }, select: { id: true } });
  if (existing) return existing.id;
  // OAuth users get an unusable random password; they sign in through their provider.
  const created = await createUserWithWorkspace({ email: normalized, password: randomBytes(48).toString('base64url').slice(0, 64) });
  return created.user.id;
}

function providers(): NextAuthOptions['providers'] {
  const list: NextAuthOptions['providers'] = [
    CredentialsProvider({
      id: 'credentials',
      name: 'Email and password',
      credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
      async authorize(credentials, req) {
        const result = await verifyCredentials(credentials?.email ?? '', credentials?.password ?? '', clientIp(req?.headers));
        if (result.outcome === 'throttled') throw new Error(THROTTLED_ERROR);
        if (result.outcome === 'invalid') return null;
        // The sign-in's address travels to the jwt callback, which records the sign-in (lib/audit).
        return { id: result.user.id, email: result.user.email, signInIp: clientAddress(firstHeader(req?.headers?.['x-forwarded-for'])) };
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
    pages: { signIn: '/signin', error: '/signin' },
    providers: providers(),
    callbacks: {
      // Runs on sign-in (user set) and on EVERY session read: the server-side session row decides.
      async jwt({ token, user, account }): Promise<JWT> {
        if (user) {
          const userId = account?.provider === 'credentials' ? user.id : await userIdForOAuthEmail(user.email);
          if (!userId) return { revoked: true };
          const signInIp = 'signInIp' in user && typeof user.signInIp === 'string' ? user.signInIp : null;
          const session = await createSession(userId, new Date(), { email: user.email ?? null, ip: signInIp });
          return { uid: userId, sid: session.id, email: user.email ?? token.email };
        }
        if (!token.uid || !token.sid || token.revoked) return { revoked: true };
        if (!(await isSessionLive(token.sid, token.uid))) return { revoked: true };
        return token;
      },
      session({ session, token }): Session {
        if (!token.uid || !token.sid || token.revoked) return { expires: session.expires };
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
