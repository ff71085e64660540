'use client';

import { signOut } from 'next-auth/react';
import { useState } from 'react';
import { buttonClass } from './ui';

/** Signs out through next-auth (its signOut event revokes the server-side session row). */
export function SignOutButton() {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      className={buttonClass.secondary}
      disabled={pending}
      onClick={() => {
        setPending(true);
        void signOut({ callbackUrl: '/signin' });
      }}
    >
      Sign out
    </button>
  );
}
