import { getMe } from '@/lib/api/endpoints/me';
import { apiRoute } from '@/lib/api/route';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(getMe);
