import { getRateEndpoint } from '@/lib/api/endpoints/rates';
import { apiRoute } from '@/lib/api/route';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(getRateEndpoint);
