'use client';

import { useActionState, useState } from 'react';
import { buttonClass, FieldError, inputClass, Notice } from '@/components/ui';
import { EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES } from '@/lib/events/types';
import { createEndpoint } from './actions';
import { SecretOnceDialog } from '@/components/secret-once-dialog';
import { useStepUp } from '@/components/step-up';
import { SIGNING_SECRET_WARNING } from './secret-warning';

/**
 * Adds an endpoint. Inputs are controlled so that a refused URL (webhook_url_refused) is shown beside the field
 * with everything the user typed kept; after success the form is cleared and the secret is shown once.
 */
/** `liveAllowed`: the role table lets this member add live endpoints (the server checks again). */
export function CreateEndpointForm({ liveAllowed }: { liveAllowed: boolean }) {
  // A live endpoint asks the user to confirm it is them (step-up) when the server says so.
  const [state, action, pending] = useActionState(useStepUp(createEndpoint), null);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [environment, setEnvironment] = useState<'test' | 'live'>('test');
  const [eventTypes, setEventTypes] = useState<string[]>([]);
  const [cleared, setCleared] = useState<string | null>(null);
  const created = state?.ok ? state.data : null;
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};

  // After a success, clear the form once (render-time state adjustment, no effect needed).
  if (created && cleared !== created.endpoint.id) {
    setCleared(created.endpoint.id);
    setUrl('');
    setDescription('');
    setEventTypes([]);
  }

  const toggle = (type: string, checked: boolean) =>
    setEventTypes((current) => (checked ? [...current, type] : current.filter((t) => t !== type)));

  return (
    <>
      <form action={action} className="space-y-4" aria-label="Add webhook endpoint">
        {state && !state.ok ? (
          <Notice tone="error">{errors.url ? 'The endpoint was not added: check the URL.' : state.error}</Notice>
        ) : null}
        <div>
          <label htmlFor="endpoint-url" className="block text-sm font-medium">
            Endpoint URL
          </label>
          <input
            id="endpoint-url"
            name="url"
            type="url"
            required
            maxLength={2048}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://example.com/webhooks"
            aria-invalid={Boolean(errors.url)}
            aria-describedby={`endpoint-url-hint${errors.url ? ' endpoint-url-error' : ''}`}
            className={`mt-1 ${inputClass}`}
          />
          <p id="endpoint-url-hint" className="mt-1 text-xs text-slate-600">
            Live endpoints need https://; test endpoints may use http://. The host must resolve to a public address.
          </p>
          <FieldError id="endpoint-url-error" message={errors.url} />
        </div>
        <div>
          <label htmlFor="endpoint-description" className="block text-sm font-medium">
            Description <span className="font-normal text-slate-600">(optional)</span>
          </label>
          <input
            id="endpoint-description"
            name="description"
            type="text"
            maxLength={200}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            aria-invalid={Boolean(errors.description)}
            aria-describedby={errors.description ? 'endpoint-description-error' : undefined}
            className={`mt-1 ${inputClass}`}
          />
          <FieldError id="endpoint-description-error" message={errors.description} />
        </div>
        <fieldset>
          <legend className="text-sm font-medium">Environment</legend>
          <div className="mt-2 flex flex-wrap gap-4 text-sm">
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="environment"
                value="test"
                checked={environment === 'test'}
                onChange={() => setEnvironment('test')}
              />{' '}
              Test (events of test invoices)
            </label>
            {liveAllowed ? (
              <label className="flex items-center gap-2">
                <input
                  type="radio"
                  name="environment"
                  value="live"
                  checked={environment === 'live'}
                  onChange={() => setEnvironment('live')}
                />{' '}
                Live (events of live invoices)
              </label>
            ) : null}
          </div>
          {liveAllowed ? null : (
            <p className="mt-1 text-xs text-slate-600">Live endpoints are for Owners and Admins of the workspace.</p>
          )}
        </fieldset>
        <fieldset aria-describedby="event-types-hint">
          <legend className="text-sm font-medium">Event types</legend>
          <p id="event-types-hint" className="mt-1 text-xs text-slate-600">
            Leave all unchecked to receive every event type, including types added later.
          </p>
          <div className="mt-2 grid gap-2 text-sm sm:grid-cols-2">
            {SUBSCRIBABLE_EVENT_TYPES.map((type) => (
              <label key={type} className="flex items-start gap-2">
                <input
                  type="checkbox"
                  name="event_types"
                  value={type}
                  className="mt-1"
                  checked={eventTypes.includes(type)}
                  onChange={(e) => toggle(type, e.target.checked)}
                />
                <span>
                  <code className="font-mono">{type}</code>{' '}
                  <span className="text-slate-600">— {EVENT_TYPES[type]}</span>
                </span>
              </label>
            ))}
          </div>
          <FieldError id="event-types-error" message={errors.event_types} />
        </fieldset>
        <button type="submit" className={buttonClass.primary} disabled={pending}>
          {pending ? 'Adding…' : 'Add endpoint'}
        </button>
      </form>

      <SecretOnceDialog
        open={created !== null && created.endpoint.id !== dismissed}
        title={created ? `Endpoint added: ${created.endpoint.url}` : ''}
        warningTitle="Copy this signing secret now"
        warning={SIGNING_SECRET_WARNING}
        label="Signing secret"
        secret={created?.secret ?? ''}
        inputId="webhook-secret"
        inputTestId="webhook-secret"
        onDone={() => created && setDismissed(created.endpoint.id)}
      />
    </>
  );
}
