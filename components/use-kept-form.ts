'use client';

import { startTransition, useActionState, type FormEvent } from 'react';
import type { ActionResult, ActionState } from '@/lib/portal/action';

/**
 * useActionState for forms that must keep what the user typed and chose. React 19 resets an uncontrolled
 * `<form action={fn}>` after every submission — after a validation error too, so a re-submit would send
 * defaults the user never saw (Test instead of Live, no scopes). Submitting through onSubmit instead of the
 * form's `action` keeps every field as it is; on success the caller decides what to clear.
 */
export function useKeptForm<T>(action: (previous: ActionState<T>, formData: FormData) => Promise<ActionResult<T>>) {
  const [state, dispatch, pending] = useActionState(action, null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    startTransition(() => dispatch(formData));
  };
  return [state, onSubmit, pending] as const;
}
