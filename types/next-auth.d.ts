import 'next-auth';
import 'next-auth/jwt';

declare module 'next-auth' {
  interface Session {
    sid?: string;
    user?: { id: string; email: string };
    /** An OAuth sign-in waiting for its two-factor code (lib/auth/oauth-second-factor.ts). */
    secondFactorPending?: { sid: string; userId: string; email: string | null };
  }
}

declare module 'next-auth/jwt' {
  interface JWT {
    uid?: string;
    sid?: string;
    revoked?: boolean;
    secondFactorPending?: boolean;
  }
}
