import { getEventEndpoint } from '@/lib/api/endpoints/events';
import { apiRoute } from '@/lib/api/route';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(getEventEndpoint);
