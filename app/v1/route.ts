import { unknownRoute } from '@/lib/api/route';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = unknownRoute();
