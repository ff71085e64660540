import NextAuth from 'next-auth';
import { authOptions } from '@/lib/auth/next-auth';

type Context = { params: Promise<{ nextauth: string[] }> };

// Options are built per request (lazily cached) so that nothing reads or writes the secret at build time.
function handler(request: Request, context: Context): Promise<Response> {
  return NextAuth(request as never, context as never, authOptions());
}

export { handler as GET, handler as POST };
