import { AppError } from '../errors';
import { toEventResource } from './serialize';
import { selectEvent, selectEventPage } from './store';
import type { Tenant } from '../tenant';
import { EVENT_ID_PATTERN, type ListEventsQuery } from './schemas';

const NOT_FOUND_MESSAGE = 'No event with this id exists in this workspace and environment';

export async function getEvent(tenant: Tenant, id: string) {
  const row = EVENT_ID_PATTERN.test(id) ? await selectEvent(tenant, id) : null;
  if (!row) throw new AppError('event_not_found', NOT_FOUND_MESSAGE);
  return toEventResource(row);
}

/** Newest first; `starting_after` must name an event of this workspace and environment. */
export async function listEvents(tenant: Tenant, query: ListEventsQuery) {
  const { rows, cursorFound } = await selectEventPage(tenant, {
    type: query.type ?? null,
    cursor: query.starting_after ?? null,
    take: query.limit + 1,
  });
  if (!cursorFound) {
    throw new AppError('validation_failed', 'starting_after does not name an event of this workspace and environment', {
      errors: [{ path: 'starting_after', message: NOT_FOUND_MESSAGE }],
    });
  }
  const page = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  return {
    object: 'list' as const,
    data: page.map(toEventResource),
    has_more: hasMore,
    next_cursor: hasMore ? (page.at(-1)?.id ?? null) : null,
  };
}
