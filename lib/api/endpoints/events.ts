import { getEvent, listEvents } from '../../events/events';
import { EventIdParams, EventList, EventResource, ListEventsQuery } from '../../events/schemas';
import { tenantOfKey } from '../../tenant';
import { defineEndpoint } from '../endpoint';

export const listEventsEndpoint = defineEndpoint({
  operationId: 'listEvents',
  method: 'GET',
  path: '/v1/events',
  summary: 'List events',
  description:
    "Newest first, only the calling key's workspace and environment, kept 30 days. Paginate with `starting_after` = the previous page's `next_cursor`; filter with `type`.",
  tags: ['Events'],
  scope: 'invoices:read',
  query: ListEventsQuery,
  response: EventList,
  successStatus: 200,
  errors: ['validation_failed'],
  handler: ({ key, query }) => listEvents(tenantOfKey(key), query),
});

export const getEventEndpoint = defineEndpoint({
  operationId: 'getEvent',
  method: 'GET',
  path: '/v1/events/{id}',
  summary: 'Retrieve an event',
  description: "Another workspace's or environment's event id answers 404, like one that never existed.",
  tags: ['Events'],
  scope: 'invoices:read',
  params: EventIdParams,
  response: EventResource,
  successStatus: 200,
  errors: ['event_not_found'],
  handler: ({ key, params }) => getEvent(tenantOfKey(key), params.id),
});
